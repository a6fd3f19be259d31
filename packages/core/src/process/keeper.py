"""The keepers of agent-tools: one zygote per harness process, and one keeper per process tree it forks, on Linux.

Run by KEEPER_BOOTSTRAP (packages/core/src/process/keeper-script.ts), which reads this file's text from fd 0 up to
a NUL and executes it with EARLY bound to what followed the NUL. What it does and why: see keeper-script.ts.

Imported as a module (eval's kernel-group.py does, to end a kernel's process group), it runs nothing: its /proc
reading and pidfd signalling (stat, send_signal, group, end_group) serve both.
"""
# _socket, not socket: socket.py imports selectors and collections (half of the zygote's start).
import _socket, ctypes, errno, os, select, signal, sys, time

# os.execvpe imports warnings to read PATH from a bytes environment: imported once here, not in every fork.
__import__("warnings")
REQUESTS = 0
CHANNEL = int(os.environ.get("NODE_CHANNEL_FD", "-1"))
LIBC = ctypes.CDLL(None, use_errno=True)
PR_SET_CHILD_SUBREAPER = 36


def stat(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split(" ")
    # state, parent, start time (what tells a reused pid apart), process group
    return fields[0], int(fields[1]), fields[19], int(fields[2])


def children(pid):
    found = []
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return found
    for tid in tids:
        try:
            with open("/proc/%d/task/%s/children" % (pid, tid), "rb") as f:
                found.extend(int(child) for child in f.read().split())
        except OSError:
            pass
    return found


def tree(me, children_files):
    """The live processes below a keeper: all of them, since it is their subreaper."""
    if children_files:
        found, queue = [], [me]
        while queue:
            for pid in children(queue.pop()):
                info = stat(pid)
                if info is not None:
                    queue.append(pid)
                    if info[0] not in "ZXx":
                        found.append((pid, info[2]))
        return found
    by_parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            info = stat(int(name))
            if info is not None:
                by_parent.setdefault(info[1], []).append((int(name), info[0], info[2]))
    found, queue = [], [me]
    while queue:
        for pid, state, start in by_parent.get(queue.pop(), ()):
            queue.append(pid)
            if state not in "ZXx":
                found.append((pid, start))
    return found


def send_signal(pid, start, signum, group=None):
    """Signals pid if it is still the process that started at `start` (and, given `group`, still in that group)."""

    def same(info):
        return info is not None and info[2] == start and (group is None or info[3] == group)

    opener = getattr(os, "pidfd_open", None)
    if opener is not None:
        try:
            fd = opener(pid)
        except OSError:
            return
        try:
            if same(stat(pid)):
                signal.pidfd_send_signal(fd, signum)
        except OSError:
            pass
        finally:
            os.close(fd)
        return
    if same(stat(pid)):
        try:
            os.kill(pid, signum)
        except OSError:
            pass


def group(leader):
    """The live members of process group `leader`, the leader left out."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != leader:
            info = stat(int(name))
            if info is not None and info[3] == leader and info[0] not in "ZXx":
                found.append((int(name), info[2]))
    return found


def end_group(leader, steps):
    """Ends the other members of group `leader`: each (signal, grace seconds) step in turn, until none is left."""
    for signum, grace in steps:
        left = group(leader)
        for pid, start in left:
            send_signal(pid, start, signum, leader)
        deadline = time.monotonic() + grace
        while left and time.monotonic() < deadline:
            time.sleep(0.02)
            left = group(leader)
        if not left:
            return


def retitle(grace, argv, env):
    """Shows the command and its environment in the keeper's /proc/PID/cmdline and environ, in the zygote's areas.

    A forked keeper would otherwise show the zygote's; as when every keeper was a Python start of its own, ps and
    whoever finds a run's processes through /proc (by a tag in the command line, a marker in the environment) see
    the keeper with its tree. The areas cannot grow: the zygote starts with room for both (padding in its arguments
    and environment), and what does not fit is left out. Nothing else in the keeper reads them.
    """
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        arg_start, arg_end, env_start, env_end = (int(field) for field in fields[45:49])
    except (OSError, ValueError, IndexError):
        return
    if not (arg_start and arg_end > arg_start and env_start and env_end > env_start):
        return
    # The kernel reads a title up to its first NUL, at most one page, once the area's last byte is not a NUL.
    room = min(arg_end - arg_start, 4096)
    title = b" ".join([os.fsencode(sys.executable), b"agent-tools-keeper", grace] + argv)[: room - 1].replace(b"\0", b" ")
    ctypes.memmove(arg_start, title + b"\0" + b" " * (arg_end - arg_start - len(title) - 1), arg_end - arg_start)
    room, shown = env_end - env_start, b""
    for entry in env:
        if len(shown) + len(entry) + 1 > room:
            break
        shown += entry + b"\0"
    ctypes.memmove(env_start, shown + b"\0" * (room - len(shown)), room)


def keep(ctl, grace, argv, env, cwd, stdio):
    """The keeper of one tree: a subreaper that runs the command and ends what is left of its tree.

    `ctl` is its socket to the harness; `stdio` the command's fds 0-2. Never returns.
    """
    me = os.getpid()
    os.setsid()
    contained = False
    try:
        contained = LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except Exception:
        pass
    children_files = os.path.exists("/proc/%d/task/%d/children" % (me, me))
    lifeline_grace = min(grace, 2.0)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    for signum in (signal.SIGCHLD, signal.SIGTERM):
        signal.signal(signum, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)

    def send(*words):
        try:
            os.write(ctl, (" ".join(str(word) for word in words) + "\n").encode())
        except OSError:
            pass

    def sweep(signum):
        for pid, start in tree(me, children_files):
            send_signal(pid, start, signum)

    err_r, err_w = os.pipe()
    leader = os.fork()
    if leader == 0:
        try:
            for target, fd in enumerate(stdio):
                os.dup2(fd, target)
            os.chdir(cwd)
            os.setsid()
            for signum in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE, signal.SIGXFSZ):
                signal.signal(signum, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.closerange(3, err_w)
            os.closerange(err_w + 1, 65536)
            os.execvpe(argv[0], argv, env)
        except OSError as error:
            os.write(err_w, errno.errorcode.get(error.errno, "EIO").encode())
        except BaseException:
            os.write(err_w, b"EIO")
        os._exit(127)
    os.close(err_w)
    retitle(b"%d" % round(grace * 1000), argv, [b"%s=%s" % item for item in env.items()])
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    for fd in set(stdio):
        if fd > 2:
            os.close(fd)
    failure = b""
    while True:
        chunk = os.read(err_r, 64)
        if not chunk:
            break
        failure += chunk
    os.close(err_r)
    if failure:
        os.waitpid(leader, 0)
        send("error", failure.decode())
        os._exit(127)
    send("pid", leader, int(contained))

    status = None
    kill_at = None
    killing = False
    pending = b""
    poller = select.poll()
    poller.register(wake_r, select.POLLIN)
    poller.register(ctl, select.POLLIN)

    def stop(grace):
        nonlocal kill_at
        sweep(signal.SIGTERM)
        deadline = time.monotonic() + grace
        kill_at = deadline if kill_at is None else min(kill_at, deadline)

    while True:
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            words = line.decode().split()
            if len(words) != 2:
                continue
            if words[0] == "stop" and words[1].isdigit():
                stop(int(words[1]) / 1000.0)
            elif words == ["signal", "SIGKILL"]:
                killing = True
            elif words[0] == "signal" and words[1] in signal.Signals.__members__:
                sweep(signal.Signals[words[1]])
        alone = False
        while True:
            try:
                pid, code = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                # No child left, living or dead: as their subreaper, nothing is left below the keeper.
                alone = True
                break
            if pid == 0:
                break
            if pid == leader:
                status = code
                if os.WIFSIGNALED(code):
                    send("exit", "signal", signal.Signals(os.WTERMSIG(code)).name)
                else:
                    send("exit", "code", os.WEXITSTATUS(code))
                stop(grace)
        if status is not None and (alone or not (contained or tree(me, children_files))):
            break
        now = time.monotonic()
        if kill_at is not None and now >= kill_at:
            killing = True
        if killing:
            sweep(signal.SIGKILL)
        timeout = 50 if killing else (None if kill_at is None else max(0, int((kill_at - now) * 1000)) + 1)
        if status is not None and timeout is None:
            timeout = 50
        try:
            events = poller.poll(timeout)
        except InterruptedError:
            continue
        for fd, _ in events:
            if fd == wake_r:
                try:
                    signals = os.read(wake_r, 256)
                except BlockingIOError:
                    signals = b""
                if signal.SIGTERM in signals:
                    stop(grace)
            elif fd == ctl:
                try:
                    data = os.read(ctl, 65536)
                except OSError:
                    data = b""
                if not data:
                    poller.unregister(ctl)
                    stop(lifeline_grace)
                    continue
                pending += data
    if os.WIFSIGNALED(status):
        os._exit(128 + os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status))


def tell(message, fd=None):
    """One message to the harness over Node's IPC channel (JSON lines), with an fd for Node to take as a socket.

    A harness that is gone cannot hear it: the keeper whose socket it would have been sees its end close instead.
    """
    try:
        if fd is None:
            CHANNEL_SOCKET.sendall(message.encode() + b"\n")
        else:
            wrapped = '{"cmd":"NODE_HANDLE","type":"net.Socket","msg":%s}\n' % message
            rights = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fd.to_bytes(4, sys.byteorder, signed=True))]
            CHANNEL_SOCKET.sendmsg([wrapped.encode()], rights)
    except OSError:
        pass


def fork_tree(request, null):
    """Forks the keeper of one tree for a request: `ID\\0CWD\\0GRACE\\0STDIO\\0ARGC\\0ARGS...\\0ENV...`."""
    fields = request.split(b"\0")
    ident, cwd, grace, modes, argc = int(fields[0]), fields[1], int(fields[2]) / 1000.0, fields[3], int(fields[4])
    argv = fields[5:5 + argc]
    env = dict(entry.split(b"=", 1) for entry in fields[5 + argc:] if b"=" in entry)
    ours, theirs = [], []
    try:
        for mode in modes:
            if mode == ord("p"):
                here, there = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM)
                ours.append(here)
                theirs.append(there.detach())
            else:
                ours.append(None)
                theirs.append(null)
        control, kept = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM)
        keeper = os.fork()
    except OSError as error:
        for sock in ours:
            if sock is not None:
                sock.close()
        for fd in theirs:
            if fd != null:
                os.close(fd)
        tell('{"id":%d,"error":"%s"}' % (ident, errno.errorcode.get(error.errno, "EIO")))
        return
    if keeper == 0:
        try:
            signal.set_wakeup_fd(-1)
            for sock in ours + [control]:
                if sock is not None:
                    sock.close()
            for fd in (CHANNEL, CHANNEL_SOCKET.detach(), WAKE[0], WAKE[1]):
                os.close(fd)
            keep(kept.detach(), grace, argv, env, cwd, theirs)
        except BaseException:
            pass
        os._exit(127)
    kept.close()
    for fd in theirs:
        if fd != null:
            os.close(fd)
    tell('{"id":%d,"keeper":%d}' % (ident, keeper))
    for index, sock in enumerate(ours + [control]):
        if sock is not None:
            tell('{"id":%d,"fd":%d}' % (ident, index), sock.fileno())
            sock.close()
    return keeper, ident


def zygote():
    """Forks a keeper for each request on fd 0, and tells the harness how each keeper ended, until it is gone."""
    wake_r, wake_w = WAKE
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    for signum in (signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 1)
    os.dup2(null, 2)
    keepers = {}
    pending = globals()["EARLY"]  # bound by the bootstrap, which runs this text with exec
    poller = select.poll()
    poller.register(REQUESTS, select.POLLIN)
    poller.register(CHANNEL, select.POLLIN)
    poller.register(wake_r, select.POLLIN)
    while True:
        while b"\n" in pending:
            size, rest = pending.split(b"\n", 1)
            if len(rest) < int(size):
                break
            request, pending = rest[: int(size)], rest[int(size):]
            forked = fork_tree(request, null)
            if forked:
                keepers[forked[0]] = forked[1]
        while True:
            try:
                pid, code = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            ident = keepers.pop(pid, None)
            if ident is None:
                continue
            if os.WIFSIGNALED(code):
                tell('{"id":%d,"signal":"%s"}' % (ident, signal.Signals(os.WTERMSIG(code)).name))
            else:
                tell('{"id":%d,"code":%d}' % (ident, os.WEXITSTATUS(code)))
        try:
            events = poller.poll()
        except InterruptedError:
            continue
        for fd, event in events:
            if fd == wake_r:
                try:
                    os.read(wake_r, 256)
                except BlockingIOError:
                    pass
                continue
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                # The harness is gone (or closed its end): each keeper's own socket tells it so; nothing is left to do.
                os._exit(0)
            if fd == REQUESTS:
                pending += data
            # On the channel: Node's acknowledgements of the sockets it took, which need no answer.


if __name__ == "__main__":
    os.set_blocking(CHANNEL, True)
    CHANNEL_SOCKET = _socket.socket(fileno=os.dup(CHANNEL))
    WAKE = os.pipe()
    zygote()
