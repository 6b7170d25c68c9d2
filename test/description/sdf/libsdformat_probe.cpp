// Reference probe for the SDF tests and bench/survey.py: loads a file with libsdformat
// (SDFormat 12) and prints, as JSON, every link pose and every joint axis expressed in the
// top-level model frame, with the joints' types and axis limits and the links' masses.
//
//   libsdformat_probe FILE            -> {"errors": [...], "models": {name: {"links": ..., "joints": ...,
//                                          "limits": ..., "masses": ..., "static": bool}}}
//   libsdformat_probe --time N FILE   -> {"seconds_per_load": s, "errors": n}
//
// Includes of package://pkg/path are looked up as pkg/path under the directories of SDF_PATH.
// Link poses are 4x4 row-major matrices; axes unit 3-vectors. "limits" maps each joint to
// {"type": name, "axis": [lower, upper, effort, velocity], "axis2": [...]} (rad or m, N·m or N,
// rad/s or m/s, as libsdformat holds them: unset = -1e16, 1e16, inf, inf); "dynamics" each
// joint to {"axis": [damping, friction, spring_reference, spring_stiffness, stop stiffness,
// stop dissipation], "axis2": [...]} (libsdformat's values, defaults included); "masses"
// each link to its mass in kg. Non-finite numbers are written Infinity / -Infinity / NaN (as
// Python's json reads them). Nested model links and joints are named with "::" scopes. Built by
// test/description/sdf/conftest.py with g++ and `pkg-config sdformat12`.
#include <sdf/sdf.hh>
#include <ignition/math/Matrix4.hh>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

namespace {

std::string Quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { out += '\\'; out += c; }
    else if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

std::string Num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

std::string Mat(const ignition::math::Matrix4d &m) {
  std::string out = "[";
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      out += Num(m(r, c)) + ((r == 3 && c == 3) ? "]" : ",");
  return out;
}

const char *TypeName(sdf::JointType type) {
  switch (type) {
    case sdf::JointType::BALL: return "ball";
    case sdf::JointType::CONTINUOUS: return "continuous";
    case sdf::JointType::FIXED: return "fixed";
    case sdf::JointType::GEARBOX: return "gearbox";
    case sdf::JointType::PRISMATIC: return "prismatic";
    case sdf::JointType::REVOLUTE: return "revolute";
    case sdf::JointType::REVOLUTE2: return "revolute2";
    case sdf::JointType::SCREW: return "screw";
    case sdf::JointType::UNIVERSAL: return "universal";
    default: return "invalid";
  }
}

struct Out {
  std::ostringstream links, joints, limits, dynamics, masses, errors;
  bool firstLink = true, firstJoint = true, firstError = true;
  void Error(const std::string &msg) {
    errors << (firstError ? "" : ",") << Quote(msg);
    firstError = false;
  }
};

void Walk(const sdf::Model *model, const std::string &prefix, const ignition::math::Matrix4d &xTop, Out &out) {
  for (uint64_t i = 0; i < model->LinkCount(); ++i) {
    const sdf::Link *link = model->LinkByIndex(i);
    ignition::math::Pose3d pose;
    for (const auto &e : link->SemanticPose().Resolve(pose, "__model__")) out.Error(e.Message());
    ignition::math::Matrix4d m = xTop * ignition::math::Matrix4d(pose);
    out.links << (out.firstLink ? "" : ",") << Quote(prefix + link->Name()) << ":" << Mat(m);
    out.masses << (out.firstLink ? "" : ",") << Quote(prefix + link->Name()) << ":" << Num(link->Inertial().MassMatrix().Mass());
    out.firstLink = false;
  }
  for (uint64_t i = 0; i < model->JointCount(); ++i) {
    const sdf::Joint *joint = model->JointByIndex(i);
    out.joints << (out.firstJoint ? "" : ",") << Quote(prefix + joint->Name()) << ":{";
    out.limits << (out.firstJoint ? "" : ",") << Quote(prefix + joint->Name()) << ":{\"type\":"
               << Quote(TypeName(joint->Type()));
    out.dynamics << (out.firstJoint ? "" : ",") << Quote(prefix + joint->Name()) << ":{";
    out.firstJoint = false;
    bool first = true;
    for (unsigned int a = 0; a < 2; ++a) {
      const sdf::JointAxis *axis = joint->Axis(a);
      if (axis == nullptr) continue;
      ignition::math::Vector3d xyz;
      for (const auto &e : axis->ResolveXyz(xyz, "__model__")) out.Error(e.Message());
      ignition::math::Vector3d v = xTop.Rotation() * xyz;
      out.joints << (first ? "" : ",") << Quote(a == 0 ? "axis" : "axis2") << ":[" << Num(v.X()) << ","
                 << Num(v.Y()) << "," << Num(v.Z()) << "]";
      out.limits << "," << Quote(a == 0 ? "axis" : "axis2") << ":[" << Num(axis->Lower()) << ","
                 << Num(axis->Upper()) << "," << Num(axis->Effort()) << "," << Num(axis->MaxVelocity()) << "]";
      out.dynamics << (first ? "" : ",") << Quote(a == 0 ? "axis" : "axis2") << ":[" << Num(axis->Damping()) << ","
                   << Num(axis->Friction()) << "," << Num(axis->SpringReference()) << ","
                   << Num(axis->SpringStiffness()) << "," << Num(axis->Stiffness()) << ","
                   << Num(axis->Dissipation()) << "]";
      first = false;
    }
    out.dynamics << "}";
    out.joints << "}";
    out.limits << "}";
  }
  for (uint64_t i = 0; i < model->ModelCount(); ++i) {
    const sdf::Model *nested = model->ModelByIndex(i);
    ignition::math::Pose3d pose;
    for (const auto &e : nested->SemanticPose().Resolve(pose)) out.Error(e.Message());
    Walk(nested, prefix + nested->Name() + "::", xTop * ignition::math::Matrix4d(pose), out);
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::string(argv[1]) == "--time") {
    const int n = std::stoi(argv[2]);
    size_t errors = 0;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
      sdf::Root root;
      errors += root.Load(argv[3]).size();
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    std::cout << "{\"seconds_per_load\":" << Num(elapsed.count() / n) << ",\"errors\":" << errors << "}\n";
    return 0;
  }
  if (argc != 2) {
    std::cerr << "usage: libsdformat_probe [--time N] FILE\n";
    return 2;
  }
  // package://pkg/path includes: pkg/path under a directory of SDF_PATH (as Gazebo's resource lookup)
  sdf::ParserConfig config = sdf::ParserConfig::GlobalConfig();
  config.SetFindCallback([](const std::string &uri) -> std::string {
    const std::string prefix = "package://";
    const char *env = std::getenv("SDF_PATH");
    if (uri.rfind(prefix, 0) != 0 || env == nullptr) return "";
    std::stringstream dirs(env);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      const std::string candidate = dir + "/" + uri.substr(prefix.size());
      if (std::ifstream(candidate + "/model.config").good() || std::ifstream(candidate).good()) return candidate;
    }
    return "";
  });
  sdf::Root root;
  Out out;
  for (const auto &e : root.Load(argv[1], config)) out.Error(e.Message());
  std::ostringstream models;
  bool firstModel = true;
  auto emit = [&](const sdf::Model *model) {
    Out per;
    Walk(model, "", ignition::math::Matrix4d::Identity, per);
    models << (firstModel ? "" : ",") << Quote(model->Name()) << ":{\"links\":{" << per.links.str()
           << "},\"joints\":{" << per.joints.str() << "},\"limits\":{" << per.limits.str()
           << "},\"dynamics\":{" << per.dynamics.str()
           << "},\"masses\":{" << per.masses.str() << "},\"static\":" << (model->Static() ? "true" : "false") << "}";
    firstModel = false;
    if (!per.firstError) out.Error(per.errors.str());
  };
  if (root.Model() != nullptr) emit(root.Model());
  for (uint64_t w = 0; w < root.WorldCount(); ++w)
    for (uint64_t i = 0; i < root.WorldByIndex(w)->ModelCount(); ++i) emit(root.WorldByIndex(w)->ModelByIndex(i));
  std::cout << "{\"errors\":[" << out.errors.str() << "],\"models\":{" << models.str() << "}}\n";
  return 0;
}
