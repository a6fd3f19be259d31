# The prelude of eval: run silently in every new Python kernel (prelude.ts compiles it under "<agent-tools>" and
# calls __agent_tools_setup with the bridge marker). It defines `tool()` (the bridge over the stdin channel) and the
# `_agent_tools` helpers that rewritten IPython idioms call (`%pip`, `%cd`, `!cmd`, `%%bash`, `%%timeit`, ...).
# Everything lives in one function so the user's namespace only gains `tool`, `ToolError` and `_agent_tools`;
# comments only up here, because a docstring would become the user namespace's __doc__.
def __agent_tools_setup(marker):
    import builtins, json, os, shlex, subprocess, sys, sysconfig, threading, time, types

    helpers = types.ModuleType("_agent_tools")
    helpers.__doc__ = "Helpers of agent-tools eval: the tool bridge and the rewritten IPython idioms."
    bridge_lock = threading.Lock()

    class ToolError(Exception):
        """A bridged tool answered with an error; .result holds the full answer."""

        def __init__(self, message, result=None):
            super().__init__(message)
            self.result = result

    class ToolText(str):
        """A bridged tool's text answer; .structured, .images and .is_error carry the rest."""

        structured = None
        images = ()
        is_error = False

    def _shell():
        try:
            return get_ipython()  # noqa: F821 (IPython puts it in builtins)
        except NameError:
            return None

    def _jsonable(value):
        if isinstance(value, os.PathLike):
            return os.fspath(value)
        if isinstance(value, (set, frozenset, tuple)):
            return list(value)
        raise TypeError(
            f"tool() arguments must be JSON data (dict, list, str, int, float, bool, None); got {type(value).__name__}"
        )

    def _bridge(calls):
        shell = _shell()
        kernel = getattr(shell, "kernel", None)
        if kernel is None or not hasattr(kernel, "raw_input"):
            raise RuntimeError("tool() works only inside an eval cell (it talks to the harness over the kernel's stdin channel)")
        payload = marker + json.dumps({"calls": calls}, default=_jsonable)
        with bridge_lock:
            reply = json.loads(kernel.raw_input(payload))
            parted = reply.get("parted") if isinstance(reply, dict) else None
            if parted:
                # A large reply travels in parts (a Jupyter server drops a websocket message over 10 MiB).
                raw = "".join(kernel.raw_input(marker + json.dumps({"part": i})) for i in range(parted["parts"]))
                if len(raw.encode("utf-16-le")) // 2 != parted["length"]:
                    raise ToolError("the tool bridge's reply arrived incomplete; call again or ask for less")
                reply = json.loads(raw)
        if "error" in reply:
            raise ToolError(reply["error"])
        answers = []
        for entry in reply["results"]:
            text = ToolText(entry.get("text", ""))
            text.structured = entry.get("structured")
            text.images = tuple(entry.get("images", ()))
            text.is_error = bool(entry.get("isError"))
            answers.append(text)
        return answers

    def tool(name, args=None, /, **kwargs):
        """Calls one of the harness's tools, e.g. tool("read", {"path": "src/app.py"}).

        Returns its text (a str with .structured and .images); raises ToolError when the tool answers with an error.
        The call goes through the harness's registry: the same surface, approval and wrappers as a model's call.
        """
        call_args = dict(args or {}, **kwargs)
        (answer,) = _bridge([{"name": name, "args": call_args}])
        if answer.is_error:
            raise ToolError(str(answer), answer)
        return answer

    def parallel(calls):
        """Runs several tool calls concurrently: parallel([("read", {"path": "a"}), ("read", {"path": "b"})]).

        Returns one answer per call, in order; a failed call's place holds its ToolError (not raised).
        """
        normalized = []
        for call in calls:
            if isinstance(call, str):
                name, call_args = call, {}
            elif isinstance(call, dict):
                name, call_args = call["name"], call.get("args", {})
            else:
                name, call_args = call[0], (call[1] if len(call) > 1 else {})
            normalized.append({"name": name, "args": call_args})
        return [ToolError(str(a), a) if a.is_error else a for a in _bridge(normalized)]

    tool.parallel = parallel

    # --- rewritten IPython idioms -------------------------------------------------------------------------

    def _expand(text, depth):
        shell = _shell()
        if shell is None or not hasattr(shell, "var_expand"):
            return text
        try:
            return shell.var_expand(text, depth=depth + 1)
        except Exception:
            return text

    def _pump(stream, sink, keep, state):
        for line in iter(stream.readline, ""):
            state["seen"] = time.monotonic()
            if state["detached"]:
                # The command has returned; this is a background job it left ("cmd &"): not this cell's output.
                continue
            if keep is not None:
                keep.append(line)
            else:
                sink.write(line)
                sink.flush()
        stream.close()

    def _run(argv, shell=False, capture=False, env=None, executable=None):
        process = subprocess.Popen(
            argv,
            shell=shell,
            executable=executable,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            bufsize=1,
            env=env,
        )
        kept = [] if capture else None
        state = {"detached": False, "seen": time.monotonic()}
        readers = [
            threading.Thread(target=_pump, args=(process.stdout, sys.stdout, kept, state), daemon=True),
            threading.Thread(target=_pump, args=(process.stderr, sys.stderr, None, state), daemon=True),
        ]
        for reader in readers:
            reader.start()
        try:
            code = process.wait()
        except KeyboardInterrupt:
            process.terminate()
            process.wait()
            raise
        # A background job ("sleep 600 &") keeps the pipes open after the command returned: read what the command
        # wrote (at most a pipe's worth is left), then stop waiting once the pipes are quiet, or after a second. The
        # job runs on in the kernel's process group and ends with the kernel or the run.
        exited = time.monotonic()
        while any(reader.is_alive() for reader in readers):
            now = time.monotonic()
            if now - state["seen"] > 0.1 or now - exited > 1.0:
                state["detached"] = True
                break
            for reader in readers:
                reader.join(0.02)
        return code, kept

    def _bash():
        return "/bin/bash" if os.path.exists("/bin/bash") else None

    def _report_status(code, what):
        shell = _shell()
        if shell is not None:
            shell.user_ns["_exit_code"] = code
        if code:
            print(f"({what} exited with status {code})", file=sys.stderr)

    def run_shell(command, _depth=0):
        """!command: runs it in bash, streaming its output; the status lands in _exit_code."""
        words = command.split(None, 1)
        if words and words[0] in ("pip", "pip3"):
            return pip(words[1] if len(words) > 1 else "", _depth + 1)
        command = _expand(command, _depth + 1)
        code, _ = _run(command, shell=True, executable=_bash())
        _report_status(code, "command")

    def shell_lines(command, _depth=0):
        """x = !command: the command's stdout lines as a list."""
        command = _expand(command, _depth + 1)
        code, kept = _run(command, shell=True, capture=True, executable=_bash())
        _report_status(code, "command")
        lines = [line.rstrip("\n") for line in kept]
        try:
            from IPython.utils.text import SList

            return SList(lines)
        except Exception:
            return lines

    def cell_shell(script, program="bash"):
        """%%bash / %%sh: runs the cell body as a script."""
        code, _ = _run([program, "-c", script])
        _report_status(code, program)

    previous_dir = [None]

    def cd(target="", _depth=0):
        """%cd: changes the kernel's working directory (~ and - work)."""
        target = _expand(target.strip(), _depth + 1)
        if target.startswith(("'", '"')) and target.endswith(target[0]) and len(target) > 1:
            target = target[1:-1]
        if target == "-":
            if previous_dir[0] is None:
                raise ValueError("%cd -: there is no previous directory yet")
            target = previous_dir[0]
        here = os.getcwd()
        os.chdir(os.path.expanduser(target) if target else os.path.expanduser("~"))
        previous_dir[0] = here
        print(os.getcwd())

    def env(line="", _depth=0):
        """%env: lists, reads or sets environment variables (%env NAME=value)."""
        line = _expand(line.strip(), _depth + 1)
        if not line:
            for key in sorted(os.environ):
                print(f"{key}={os.environ[key]}")
            return None
        if "=" in line or " " in line:
            key, _, value = line.partition("=") if "=" in line else line.partition(" ")
            os.environ[key.strip()] = value.strip()
            print(f"env: {key.strip()}={value.strip()}")
            return None
        return os.environ.get(line)

    def _externally_managed():
        if sys.prefix != getattr(sys, "base_prefix", sys.prefix):
            return False
        stdlib = sysconfig.get_path("stdlib")
        return bool(stdlib) and os.path.exists(os.path.join(stdlib, "EXTERNALLY-MANAGED"))

    def _user_base():
        base = os.environ.get("AGENT_TOOLS_EVAL_USERBASE")
        if not base:
            import tempfile

            base = os.path.join(tempfile.gettempdir(), f"agent-tools-eval-{os.getuid()}", "python-user")
        return base

    def _user_site(base):
        return sysconfig.get_path("purelib", f"{os.name}_user", vars={"userbase": base})

    def _use_site(path):
        import importlib, site

        if not path or not os.path.isdir(path):
            return
        if path in sys.path:
            sys.path.remove(path)
        site.addsitedir(path)
        if path in sys.path:
            sys.path.remove(path)
        sys.path.insert(0, path)
        importlib.invalidate_caches()

    def _top_level_modules(dist_name):
        from importlib import metadata

        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            return set()
        names = set()
        listed = dist.read_text("top_level.txt")
        if listed:
            names.update(line.strip() for line in listed.splitlines() if line.strip())
        for file in dist.files or ():
            parts = file.parts
            if not parts or parts[0] in ("..", "__pycache__") or parts[0].endswith((".dist-info", ".egg-info", ".data")):
                continue
            first = parts[0]
            if len(parts) == 1:
                if first.endswith(".py"):
                    names.add(first[:-3])
                elif first.endswith((".so", ".pyd")):
                    names.add(first.split(".")[0])
            else:
                names.add(first)
        return {name for name in names if name.isidentifier()}

    def _drop_modules(tops):
        dropped = []
        for name in list(sys.modules):
            if name.split(".")[0] in tops:
                del sys.modules[name]
                dropped.append(name)
        return sorted(n for n in dropped if "." not in n)

    def pip(line, _depth=0):
        """%pip: runs pip with the kernel's own interpreter, then drops the affected modules from sys.modules."""
        import importlib, tempfile

        args = shlex.split(_expand(line, _depth + 1))
        if not args:
            print("usage: %pip install <package or path> ...", file=sys.stderr)
            return
        command = [sys.executable, "-m", "pip", *args]
        child_env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
        sub = args[0]
        user_site = None
        report = None
        tops = set()
        if sub == "install":
            chosen = {"--user", "--target", "-t", "--prefix", "--root"}
            if _externally_managed() and not chosen.intersection(a.split("=")[0] for a in args):
                # A Debian interpreter refuses installs into the system (PEP 668). The run gets its own user base
                # instead, so nothing outside the run changes.
                base = _user_base()
                child_env["PYTHONUSERBASE"] = base
                user_site = _user_site(base)
                command += ["--user", "--break-system-packages"]
            handle, report = tempfile.mkstemp(prefix="agent-tools-pip-", suffix=".json")
            os.close(handle)
            command += ["--report", report]
        elif sub == "uninstall":
            names = [a for a in args[1:] if not a.startswith("-")]
            for name in names:
                tops |= _top_level_modules(name)
            if not {"-y", "--yes"}.intersection(args):
                command.append("--yes")
        code, _ = _run(command, env=child_env)
        if user_site:
            _use_site(user_site)
        importlib.invalidate_caches()
        if report:
            try:
                with open(report, encoding="utf-8") as handle:
                    installed = json.load(handle).get("install", [])
            except (OSError, ValueError):
                installed = []
            finally:
                os.unlink(report)
            for item in installed:
                name = item.get("metadata", {}).get("name")
                if name:
                    tops |= _top_level_modules(name)
        dropped = _drop_modules(tops)
        if dropped:
            print(f"Dropped from sys.modules, so the next import loads what pip changed: {', '.join(dropped)}")
        if code:
            print(f"(pip exited with status {code})", file=sys.stderr)

    def _format_time(seconds):
        for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
            if seconds >= scale or unit == "ns":
                return f"{seconds / scale:.3g} {unit}"
        return f"{seconds} s"

    def timeit(stmt, setup="pass", namespace=None, number=0, repeat=7):
        """%timeit / %%timeit: times stmt like IPython does, within about ten seconds."""
        import statistics, timeit as timing

        timer = timing.Timer(stmt, setup or "pass", globals=namespace)
        if number <= 0:
            number, elapsed = timer.autorange()
            per_run = elapsed
        else:
            per_run = None
        if per_run and per_run > 0:
            repeat = max(1, min(repeat, int(10 / per_run)))
        runs = [t / number for t in timer.repeat(repeat=repeat, number=number)]
        mean = statistics.fmean(runs)
        spread = statistics.pstdev(runs) if len(runs) > 1 else 0.0
        loops = "loop" if number == 1 else "loops"
        print(
            f"{_format_time(mean)} ± {_format_time(spread)} per loop "
            f"(mean ± std. dev. of {len(runs)} run{'s' if len(runs) != 1 else ''}, {number} {loops} each)"
        )

    _use_site(_user_site(_user_base()))

    helpers.tool = tool
    helpers.ToolError = ToolError
    helpers.ToolText = ToolText
    helpers.shell = run_shell
    helpers.shell_lines = shell_lines
    helpers.cell_shell = cell_shell
    helpers.cd = cd
    helpers.env = env
    helpers.pip = pip
    helpers.timeit = timeit
    sys.modules["_agent_tools"] = helpers
    builtins._agent_tools = helpers
    builtins.tool = tool
    builtins.ToolError = ToolError
    try:
        _shell().run_line_magic("colors", "nocolor")
    except Exception:
        pass

    # Keeps a cell's matplotlib figures when the cell switched to a non-GUI backend. Under ipykernel's default inline
    # backend a figure comes back as an image; `matplotlib.use("Agg")`, which scripts write by habit, turns
    # `plt.show()` into a silent no-op and the figure would be lost. After such a cell, the figures it left open are
    # shown and closed, as the inline backend does.
    non_gui_backends = {"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"}

    def _show_open_figures(*_result):
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return
        backend = "current"
        try:
            backend = str(pyplot.get_backend()).lower()
            if backend not in non_gui_backends or not pyplot.get_fignums():
                return
            import base64, io
            from IPython.display import publish_display_data

            for number in pyplot.get_fignums():
                figure = pyplot.figure(number)
                buffer = io.BytesIO()
                figure.savefig(buffer, format="png", bbox_inches="tight")
                png = base64.b64encode(buffer.getvalue()).decode("ascii")
                publish_display_data({"image/png": png, "text/plain": repr(figure)})
            pyplot.close("all")
        except Exception as error:
            sys.stderr.write(f"(this cell's matplotlib figures could not be captured under the {backend} backend: {error})\n")

    try:
        _shell().events.register("post_run_cell", _show_open_figures)
    except Exception:
        pass
