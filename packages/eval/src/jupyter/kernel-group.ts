/**
 * Python run first in every eval Python kernel: when the kernel exits (a reset, a shutdown, the end of the run),
 * it ends the other members of its process group, so what its cells left running in the background (`!sleep 600
 * &`, a server started with `subprocess.Popen`) goes with the kernel instead of waiting for the end of the run.
 * Jupyter starts each kernel as the leader of a new session, and shell commands stay in its group; a kernel killed
 * outright is covered by Jupyter's own group kill, and anything that left the group by the keeper of the run (core's
 * process supervisor).
 *
 * Members are signalled through a pidfd opened after re-checking the group, so a reused pid is never hit.
 */
export const END_GROUP_AT_EXIT = `
def __agent_tools_end_group_at_exit():
    import atexit, os, signal, time

    leader = os.getpid()

    def members():
        found = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == leader:
                continue
            try:
                with open("/proc/%s/stat" % name, "rb") as f:
                    text = f.read().decode("utf-8", "replace")
            except OSError:
                continue
            fields = text[text.rindex(")") + 2:].split(" ")
            if int(fields[2]) == leader and fields[0] not in "ZXx":
                found.append((int(name), fields[19]))
        return found

    def send(pid, start, signum):
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            return
        try:
            with open("/proc/%d/stat" % pid, "rb") as f:
                text = f.read().decode("utf-8", "replace")
            fields = text[text.rindex(")") + 2:].split(" ")
            if fields[19] == start and int(fields[2]) == leader:
                signal.pidfd_send_signal(fd, signum)
        except OSError:
            pass
        finally:
            os.close(fd)

    def end_group():
        if os.getpgrp() != leader or not os.path.isdir("/proc"):
            return
        for signum, grace in ((signal.SIGTERM, 0.5), (signal.SIGKILL, 1.0)):
            left = members()
            for pid, start in left:
                send(pid, start, signum)
            deadline = time.monotonic() + grace
            while left and time.monotonic() < deadline:
                time.sleep(0.02)
                left = members()
            if not left:
                return

    atexit.register(end_group)


__agent_tools_end_group_at_exit()
del __agent_tools_end_group_at_exit
`;
