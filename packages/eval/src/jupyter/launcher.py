"""The Python program that runs eval's local Jupyter server: `python3 -c <this text> <state dir> <server args...>`.

- It binds port 0 and prints the port it got as one JSON line, so there is no race for a free port.
- It turns Nagle's algorithm off on the kernel websockets: tornado leaves it on, and every small iopub message after
  the first then waits for the client's delayed ACK (40 ms on Linux): the difference between a 10 ms and a 50 ms cell.
- It stops the server (which shuts its kernels down) when its stdin closes, so the server cannot outlive the Node
  process that owns it, even when that process is killed.
"""
import json, os, signal, sys, threading

import tornado.websocket as _tws

_write_message = _tws.WebSocketHandler.write_message


def _write_message_nodelay(self, message, binary=False):
    connection = self.ws_connection
    if connection is not None and not getattr(self, "_agent_tools_nodelay", False):
        connection.set_nodelay(True)
        self._agent_tools_nodelay = True
    return _write_message(self, message, binary)


_tws.WebSocketHandler.write_message = _write_message_nodelay


def _stop_when_orphaned():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except Exception:
        pass
    os.kill(os.getpid(), signal.SIGTERM)


from jupyter_server.serverapp import ServerApp

app = ServerApp()
app.initialize(sys.argv[2:])
port = [s.getsockname()[1] for s in app.http_server._sockets.values()][0]
app.port = port
threading.Thread(target=_stop_when_orphaned, daemon=True).start()
sys.stdout.write(json.dumps({"agent_tools_ready": True, "port": port}) + "\n")
sys.stdout.flush()
app.start()
