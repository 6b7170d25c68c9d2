"""xacro files expanded with the ``xacro`` library, in a child process bounded in
memory and time."""
