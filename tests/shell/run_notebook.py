#!/usr/bin/python3
"""Executes a notebook headless as Jupyter would (nbclient, the python3 kernel), in its own
folder, and saves it with its outputs. Exit 1 with the failing cell's error on one line.
Usage: tests/shell/run_notebook.py NOTEBOOK.ipynb [TIMEOUT_SECONDS]"""
import os
import sys

import nbclient
import nbformat

path = sys.argv[1]
timeout = int(sys.argv[2]) if len(sys.argv) > 2 else 600
os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # the kernel's debugger warns on every start
notebook = nbformat.read(path, as_version=4)
client = nbclient.NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                 resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
try:
    client.execute()
except nbclient.exceptions.CellExecutionError as e:
    nbformat.write(notebook, path)
    last = [line for line in str(e).splitlines() if line.strip()][-1]
    sys.exit(f"{path}: a cell failed: {last}")
nbformat.write(notebook, path)
