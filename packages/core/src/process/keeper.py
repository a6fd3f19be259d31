"""The keeper of agent-tools: stands between the harness and one process tree on Linux.

Run by KEEPER_BOOTSTRAP (packages/core/src/process/keeper-script.ts), which reads this file's text from fd 3 up to
a NUL and executes it with EARLY bound to what followed the NUL. What it does and why: see keeper-script.ts.

Imported as a module (eval's kernel-group.py does, to end a kernel's process group), it runs nothing: its /proc
reading and pidfd signalling (stat, send_signal, group, end_group) serve both.
"""
import ctypes, errno, os, select, signal, sys, time

CTL = 3
ME = os.getpid()


def send(*words):
    try:
        os.write(CTL, (" ".join(str(word) for word in words) + "\n").encode())
    except OSError:
        pass


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


CHILDREN_FILES = os.path.exists("/proc/%d/task/%d/children" % (ME, ME))


def tree():
    """The live processes below the keeper: all of them, since it is their subreaper."""
    if CHILDREN_FILES:
        found, queue = [], [ME]
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
    found, queue = [], [ME]
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


def sweep(signum):
    for pid, start in tree():
        send_signal(pid, start, signum)


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


def exec_command(err_w, argv, lc_ctype):
    try:
        os.setsid()
        for signum in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(signum, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        env = dict(os.environ)
        env.pop("LC_CTYPE", None)
        if lc_ctype is not None:
            env["LC_CTYPE"] = lc_ctype
        os.execvpe(argv[0], argv, env)
    except OSError as error:
        os.write(err_w, errno.errorcode.get(error.errno, "EIO").encode())
    except BaseException:
        os.write(err_w, b"EIO")
    os._exit(127)


def main():
    grace = int(sys.argv[2]) / 1000.0
    lifeline_grace = min(grace, 2.0)
    lc_ctype = None if sys.argv[3] == "-" else sys.argv[3][1:]
    argv = sys.argv[4:]
    os.set_inheritable(CTL, False)
    contained = False
    try:
        contained = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except Exception:
        pass
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    for signum in (signal.SIGCHLD, signal.SIGTERM):
        signal.signal(signum, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)

    err_r, err_w = os.pipe()
    leader = os.fork()
    if leader == 0:
        exec_command(err_w, argv, lc_ctype)
    os.close(err_w)
    failure = b""
    while True:
        chunk = os.read(err_r, 64)
        if not chunk:
            break
        failure += chunk
    os.close(err_r)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    if failure:
        os.waitpid(leader, 0)
        send("error", failure.decode())
        os._exit(127)
    send("pid", leader, int(contained))

    status = None
    kill_at = None
    killing = False
    pending = globals()["EARLY"]  # bound by the bootstrap, which runs this text with exec
    poller = select.poll()
    poller.register(wake_r, select.POLLIN)
    poller.register(CTL, select.POLLIN)

    def stop(within):
        nonlocal kill_at
        sweep(signal.SIGTERM)
        deadline = time.monotonic() + within
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
        if status is not None and (alone or not (contained or tree())):
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
            elif fd == CTL:
                try:
                    data = os.read(CTL, 65536)
                except OSError:
                    data = b""
                if not data:
                    poller.unregister(CTL)
                    stop(lifeline_grace)
                    continue
                pending += data
    if os.WIFSIGNALED(status):
        os._exit(128 + os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status))


if __name__ == "__main__":
    main()
