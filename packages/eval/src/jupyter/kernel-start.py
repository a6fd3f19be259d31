"""Starts ipykernel for eval: `python3 -c <kernel-group.py's code, then this> -f <connection file> ...`.

ipykernel imports debugpy for its debugger, which eval does not use and which costs a third of the kernel's start:
debugpy is hidden while ipykernel loads, then made importable again, so a cell can still `import debugpy`.
"""
import sys

sys.modules["debugpy"] = None
from ipykernel import kernelapp

del sys.modules["debugpy"]
kernelapp.launch_new_instance()
