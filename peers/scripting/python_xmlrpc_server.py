#!/usr/bin/python3
"""python_xmlrpc_server: the contract's add, concat, echoArray, fail and getChain served by
Python's xmlrpc.server.SimpleXMLRPCServer (the successor of xmlrpclib's server) at /RPC2, one
request at a time, until SIGTERM or SIGINT. docs/peers.md "Scripting stacks".

Prints "python_xmlrpc_server: serving http://ADDRESS:PORT (...)" once it accepts connections.
getChain answers the corpus's pre-serialized XML-RPC document unchanged, after the stack has
parsed the call and dispatched it. The server time of every call is split into request handling
(the stack's _marshaled_dispatch: parse, dispatch, encode) and sending (the rest of do_POST: the
status line, headers and body written to the socket); --stats FILE gets the totals at exit.
"""

import argparse
import os
import signal
import socket
import sys
import time
import xmlrpc.client
import xmlrpc.server

NAME = 'python_xmlrpc_server'


class Passthrough:
    """A method's answer that is already a whole XML-RPC response document."""

    def __init__(self, document):
        self.document = document  # the response bytes, sent as they are


class Stats:
    """The server-time split of every call, in nanoseconds."""

    def __init__(self):
        self.calls = []         # (handling, sending) per call, in order
        self.handling_ns = 0    # the current call's parse + dispatch + encode
        self.handled_at = None  # when the current call's response was ready

    def write(self, path):
        """Writes one line "HANDLING_NS SEND_NS" per call to path (every scripting server's
        format, docs/peers.md "Scripting stacks")."""
        with open(path, 'w', encoding='utf-8') as f:
            f.writelines('%d %d\n' % call for call in self.calls)


STATS = Stats()


class Stop:
    """A stop signal's state: a call under way finishes recording its split first."""
    busy = False  # a POST is being handled
    requested = False  # a signal came while it was


STOP = Stop()


class TimedHandler(xmlrpc.server.SimpleXMLRPCRequestHandler):
    """The stack's request handler, timing its POST: sending is what follows the dispatch."""

    rpc_paths = ('/RPC2',)

    def do_POST(self):
        STATS.handled_at = None
        STOP.busy = True  # a SIGTERM now waits until this call's split is recorded
        try:
            super().do_POST()
            if STATS.handled_at is not None:
                sent = time.perf_counter_ns() - STATS.handled_at
                STATS.calls.append((STATS.handling_ns, sent))
        finally:
            STOP.busy = False
            if STOP.requested:
                raise SystemExit(0)

    def log_message(self, format, *args):  # noqa: A002 (the stack's signature)
        pass  # one line per request on stderr would cost more than the call


class Server(xmlrpc.server.SimpleXMLRPCServer):
    """SimpleXMLRPCServer whose dispatch is timed and may answer a Passthrough unchanged."""

    def _marshaled_dispatch(self, data, dispatch_method=None, path=None):
        start = time.perf_counter_ns()
        try:
            params, method = xmlrpc.client.loads(data, use_builtin_types=self.use_builtin_types)
            result = self._dispatch(method, params)
            if isinstance(result, Passthrough):
                response = result.document
            else:
                response = xmlrpc.client.dumps((result,), methodresponse=1, allow_none=True,
                                               encoding=self.encoding).encode(self.encoding)
        except xmlrpc.client.Fault as fault:
            response = xmlrpc.client.dumps(fault, encoding=self.encoding).encode(self.encoding)
        except Exception as e:  # the stack's answer to anything else: fault 1, as its base does
            fault = xmlrpc.client.Fault(1, '%s:%s' % (type(e), e))
            response = xmlrpc.client.dumps(fault, encoding=self.encoding).encode(self.encoding)
        STATS.handled_at = time.perf_counter_ns()
        STATS.handling_ns = STATS.handled_at - start
        return response


def chain_document(corpus):
    """The corpus's XML-RPC getChain response, or None (getChain then answers a fault)."""
    path = os.path.join(corpus, 'xmlrpc', 'getChain.response.xml')
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError as e:
        print('%s: %s; getChain answers a fault' % (NAME, e), file=sys.stderr)
        return None


def register(server, chain):
    """The contract's operations (docs/service.md) on server."""
    def get_chain():
        if chain is None:
            raise xmlrpc.client.Fault(-32603, 'getChain document not loaded')
        return Passthrough(chain)

    def fail():
        raise xmlrpc.client.Fault(4, 'division by zero')

    server.register_function(lambda a, b: a + b, 'add')
    server.register_function(lambda s1, s2, s3='': s1 + s2 + s3, 'concat')
    server.register_function(lambda a, b: list(a) + list(b), 'echoArray')
    server.register_function(fail, 'fail')
    server.register_function(get_chain, 'getChain')


def default_corpus():
    """$SOAPBENCH_CORPUS, else the source tree's corpus/."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get('SOAPBENCH_CORPUS', os.path.join(here, '..', '..', 'corpus'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--address', default='127.0.0.1', help='listen address (default %(default)s)')
    ap.add_argument('--port', type=int, default=0, help='port, 0: any free one (printed)')
    ap.add_argument('--corpus', default=default_corpus(), help='corpus directory (getChain)')
    ap.add_argument('--stats', help='at exit, write the server-time split to this file, one line per call: '
                    '"HANDLING_NS SEND_NS"')
    args = ap.parse_args()
    if ':' in args.address:  # an IPv6 literal: socketserver listens on IPv4 unless told
        Server.address_family = socket.AF_INET6
    server = Server((args.address, args.port), requestHandler=TimedHandler, logRequests=False)
    register(server, chain_document(args.corpus))

    def stop(signum, frame):
        if STOP.busy:  # the client may have its answer before the split is recorded
            STOP.requested = True
        else:
            raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    host, port = server.server_address[:2]
    host = '[%s]' % host if ':' in host else host
    print('%s: serving http://%s:%d (xmlrpc.server, Python %s, HTTP/1.0: one call per connection)'
          % (NAME, host, port, sys.version.split()[0]), flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        if args.stats:
            STATS.write(args.stats)


if __name__ == '__main__':
    main()
