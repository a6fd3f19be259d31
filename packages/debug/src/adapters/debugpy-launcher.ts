/**
 * How the debugpy adapter is started: `python -c DEBUGPY_ADAPTER_MAIN`, which runs `debugpy.adapter` as
 * `python -m debugpy.adapter` would, after one change to the adapter process only.
 *
 * pydevd (in the debuggee) writes each message to the adapter as two `sendall` calls, header then body, on a
 * socket with Nagle's algorithm on; the adapter's kernel delays its ACK of the header by up to 40 ms, and the body
 * waits for that ACK. Every DAP request to debugpy cost about 45 ms that way. Asking for an immediate ACK before
 * each read (TCP_QUICKACK, which Linux clears after use) removes the wait without touching the debuggee.
 * Where the option does not exist the adapter runs unchanged.
 */
export const DEBUGPY_ADAPTER_MAIN = [
  'import runpy, socket, sys',
  'quick = getattr(socket, "TCP_QUICKACK", None)',
  'if quick is not None:',
  '    recv_into = socket.socket.recv_into',
  '    def recv_into_acking(self, *args, **kwargs):',
  '        try:',
  '            self.setsockopt(socket.IPPROTO_TCP, quick, 1)',
  '        except OSError:',
  '            pass',
  '        return recv_into(self, *args, **kwargs)',
  '    socket.socket.recv_into = recv_into_acking',
  'sys.argv[0] = "debugpy.adapter"',
  'runpy.run_module("debugpy.adapter", run_name="__main__", alter_sys=True)',
].join('\n');
