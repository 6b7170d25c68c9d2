"""Helpers with no robot concept of their own: booleans, lazy exports, ROS name
syntax, string similarity."""
