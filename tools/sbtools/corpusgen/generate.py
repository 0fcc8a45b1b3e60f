#!/usr/bin/python3
"""Writes soapbench's test corpus: every message of every protocol family, the hostile
inputs and manifest.json (docs/corpus.md). Deterministic: a re-run reproduces every byte."""

import argparse
import gzip
import hashlib
import io
import json
import multiprocessing
import os
import shutil
import sys
import time
from collections import namedtuple
from pathlib import Path

from sbtools.paths import CORPUS_DIR

from . import hostile, inputs
from .contract import Fault, Message, canonical
from .families import DEFAULT_STYLE, FAMILIES, encode
from .inputs import KIB, MIB

GZIP_THRESHOLD = 512 * KIB
CHAIN_TARGET = 450 * KIB  # getChain: size of the XML-RPC response
CANONICAL_INLINE_MAX = 4096  # longer canonical JSON is given as SHA-256 + length
MIN_PARAGRAPH = 4  # respond: characters per paragraph when the envelope exceeds the target

RESPOND_SIZES = [('256B', 256), ('1KB', KIB), ('4KB', 4 * KIB), ('16KB', 16 * KIB),
                 ('64KB', 64 * KIB), ('256KB', 256 * KIB), ('1MB', MIB), ('4MB', 4 * MIB)]
ECHO_SIZES = [100, 1000, 10000, 100000]
ECHO_MAX_RESPONSE = 10000
ECHO_OPS = {'echoInts': inputs.ints, 'echoDoubles': inputs.doubles,
            'echoStrings': inputs.strings, 'echoBase64': inputs.blob}

# One message to write: the family, the Message, its tag, sets, nominal size and style;
# exact: the byte count the message must have (respond), or None.
Spec = namedtuple('Spec', 'family msg tag sets size style exact', defaults=[None])


def _echo_value(op, n):
    return ECHO_OPS[op]('%s.%d' % (op, n), n)


def _respond(family, tag, target, sets, size):
    """respond call and response whose response is `target` bytes (or minimal)."""
    def response(lengths):
        return Message('respond', 'response', inputs.document('respond.' + tag, lengths))

    probe = len(encode(family, response([1] * 5), with_digest=False)[0]) - 5
    budget = target - probe
    if budget < 5 * MIN_PARAGRAPH:
        lengths = [MIN_PARAGRAPH] * 5
    else:
        lengths = [budget // 5 + (1 if i < budget % 5 else 0) for i in range(5)]
    resp = response(lengths)
    exact = target if budget >= 5 * MIN_PARAGRAPH else None
    call = Message('respond', 'call', [inputs.word_count(resp.value), 0])
    return [Spec(family, call, tag, sets, size, DEFAULT_STYLE),
            Spec(family, resp, tag, sets, size, DEFAULT_STYLE, exact)]


def _chain_length():
    """Number of ChainSteps that brings the XML-RPC getChain response closest to target."""
    steps = inputs.chain_steps(1000)

    def size(n):
        return len(encode('xmlrpc', Message('getChain', 'response', steps[:n]),
                          with_digest=False)[0])

    lo, hi = 1, len(steps)
    while lo < hi:
        mid = (lo + hi) // 2
        if size(mid) < CHAIN_TARGET:
            lo = mid + 1
        else:
            hi = mid
    return min((lo - 1, lo), key=lambda n: abs(size(n) - CHAIN_TARGET))


def _pair(family, op, params, result, tag='', sets=('seed',), size=None, style=DEFAULT_STYLE):
    specs = [Spec(family, Message(op, 'call', params), tag, list(sets), size, style)]
    if result is not None:
        specs.append(Spec(family, result, tag, list(sets), size, style))
    return specs


def _response(op, value):
    return Message(op, 'response', value)


def seed_specs(family, chain):
    out = []

    def pair(op, params, result, tag=''):
        # result: the response value, or a ready Message (the fault of `fail`)
        reply = result if isinstance(result, Message) else _response(op, result)
        out.extend(_pair(family, op, params, reply, tag))

    pair('add', [2, 3], 5)
    pair('concat', list(inputs.SEED_CONCAT), ''.join(inputs.SEED_CONCAT))
    pair('echoArray', [[1, 2, 3], [4, 5]], [1, 2, 3, 4, 5])
    pair('boolean', [], True)
    pair('now', [], inputs.SEED_TIME)
    pair('complex', [inputs.persons_sent()], inputs.persons())
    pair('fail', [], Message('fail', 'fault', Fault(4, 'division by zero')))
    pair('getRate', ['USA', 'japan'], 1.25)
    pair('sendString', [inputs.words_text(inputs.rng('sendString'), 1000)], None)
    pair('receiveString', [1000], inputs.words_text(inputs.rng('receiveString'), 1000))
    pair('sendInt', [42], None)
    pair('getChain', [], chain)
    for op in ECHO_OPS:
        v = _echo_value(op, 10)
        pair(op, [v], v, '10')
    out += _respond(family, '2500B', 2500, ['seed'], None)
    out += _respond(family, '7500B', 7500, ['seed'], None)
    return out


def sweep_specs(family):
    out = []
    for tag, n in RESPOND_SIZES:
        out += _respond(family, tag, n, ['sweep'], n)
    for op in ECHO_OPS:
        for n in ECHO_SIZES:
            v = _echo_value(op, n)
            out += _pair(family, op, [v], _response(op, v) if n <= ECHO_MAX_RESPONSE else None,
                         str(n), ['sweep'], n)
    return out


def variant_specs(family):
    out = []

    def both(op, params, result, tag, **style):
        out.extend(_pair(family, op, params, _response(op, result), tag, ['variant'],
                         style=DEFAULT_STYLE._replace(**style)))

    def concat(strings, tag, **style):
        both('concat', strings, inputs.concatenated(strings), tag, **style)

    if family == 'jsonrpc':
        concat(list(inputs.SEED_CONCAT), 'pretty', indent=2)
        concat(list(inputs.UNICODE_STRINGS), 'unicode')
        concat(inputs.json_escape_strings(), 'escapes')
        return out
    for tag, style in [('compact', {'pretty': False}), ('nodecl', {'decl': False})]:
        both('getRate', ['USA', 'japan'], 1.25, tag, **style)
        concat(list(inputs.SEED_CONCAT), tag, **style)
        both('complex', [inputs.persons_sent()], inputs.persons(), tag, **style)
    concat(inputs.cdata_strings(), 'cdata')
    concat(list(inputs.MARKUP_STRINGS), 'escaped')
    concat(list(inputs.UNICODE_STRINGS), 'unicode')
    charrefs = {}
    if family != 'xmlrpc':
        charrefs['note'] = inputs.charref_note()
    if family == 'soap11-rpc-encoded':
        charrefs['type_charref'] = True
        both('complex', [inputs.persons_sent()], inputs.persons(), 'inline', multiref=False)
    concat(inputs.charref_strings(), 'charrefs', **charrefs)
    out.append(Spec(family, Message('concat', 'call', list(inputs.SEED_CONCAT)), 'comments',
                    ['variant'], None, DEFAULT_STYLE._replace(comments=True)))
    return out


def _canonical_fields(canon):
    # Long canonical lines would make the manifest larger than the corpus: hash them.
    raw = canon.encode('utf-8')
    if len(raw) <= CANONICAL_INLINE_MAX:
        return {'canonical': canon}
    return {'canonical_sha256': hashlib.sha256(raw).hexdigest(), 'canonical_bytes': len(raw)}


def _gzip(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode='wb', mtime=0, filename='') as f:
        f.write(data)
    return buf.getvalue()


def _store(out_dir, rel, data):
    """Writes data (gzip-compressed when large); returns (path as stored, bytes on disk)."""
    if len(data) >= GZIP_THRESHOLD:
        rel += '.gz'
        data = _gzip(data)
    path = out_dir / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return rel, len(data)


def _manifest_text(entries):
    lines = ['{', '  "version": 1,', '  "generator": "tools/corpusgen",', '  "entries": [']
    for i, entry in enumerate(entries):
        fields = ['      %s: %s' % (json.dumps(k), json.dumps(v, ensure_ascii=False))
                  for k, v in entry.items()]
        lines.append('    {')
        lines.append(',\n'.join(fields))
        lines.append('    }' + (',' if i + 1 < len(entries) else ''))
    lines += ['  ]', '}']
    return '\n'.join(lines) + '\n'


def _clean(out_dir):
    for name in FAMILIES + ['hostile']:
        if (out_dir / name).exists():
            shutil.rmtree(out_dir / name)
    if (out_dir / 'manifest.json').exists():
        (out_dir / 'manifest.json').unlink()


def _write_family(job):
    """Writes one family's files; returns (family, manifest entries, counts)."""
    out_dir, family, chain = job
    entries = []
    fam = {'files': 0, 'bytes': 0, 'disk': 0}
    fmt = 'json' if family == 'jsonrpc' else 'xml'
    for spec in seed_specs(family, chain) + sweep_specs(family) + variant_specs(family):
        msg = spec.msg
        data, dig = encode(family, msg, spec.style)
        assert spec.exact is None or len(data) == spec.exact, (family, spec.tag)
        name = msg.op.name + ('.' + spec.tag if spec.tag else '')
        rel, disk = _store(out_dir, '%s/%s.%s.%s' % (family, name, msg.direction, fmt), data)
        entry = {'path': rel, 'family': family, 'format': fmt, 'operation': msg.op.name,
                 'direction': msg.direction, 'tag': spec.tag, 'sets': spec.sets}
        if spec.size is not None:
            entry['size'] = spec.size
        entry.update({'bytes': len(data), 'digest': dig})
        entry.update(_canonical_fields(canonical(msg)))
        entries.append(entry)
        fam['files'] += 1
        fam['bytes'] += len(data)
        fam['disk'] += disk
    return family, entries, fam


def generate(out_dir, log=print, jobs=1):
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    _clean(out_dir)
    chain = inputs.chain_steps(_chain_length())
    entries = []
    totals = {'files': 0, 'bytes': 0, 'disk': 0}
    work = [(out_dir, family, chain) for family in FAMILIES]
    # Families are independent (each value set has its own seed): output does not depend
    # on the number of processes.
    if jobs > 1:
        pool = multiprocessing.get_context('fork').Pool(min(jobs, len(work)))
        results = pool.imap(_write_family, work)
    else:
        pool = None
        results = map(_write_family, work)
    for family, fam_entries, fam in results:
        entries += fam_entries
        log('corpusgen: %-19s %4d files %11d bytes %11d on disk'
            % (family, fam['files'], fam['bytes'], fam['disk']))
        for k in totals:
            totals[k] += fam[k]
    if pool:
        pool.close()
        pool.join()

    fam = {'files': 0, 'bytes': 0, 'disk': 0}
    for fmt, files in [('xml', hostile.xml_files()), ('json', hostile.json_files())]:
        for name, family, error_class, note, data in files:
            if isinstance(data, str):
                data = data.encode('utf-8')
            rel, disk = _store(out_dir, 'hostile/%s/%s.%s' % (fmt, name, fmt), data)
            entry = {'path': rel, 'format': fmt, 'family': family, 'hostile': True,
                     'error_class': error_class, 'bytes': len(data), 'note': note}
            if family is None:  # not a message of any family (e.g. an empty file)
                del entry['family']
            entries.append(entry)
            fam['files'] += 1
            fam['bytes'] += len(data)
            fam['disk'] += disk
    log('corpusgen: %-19s %4d files %11d bytes %11d on disk'
        % ('hostile', fam['files'], fam['bytes'], fam['disk']))
    for k in totals:
        totals[k] += fam[k]

    entries.sort(key=lambda e: e['path'])
    paths = [e['path'] for e in entries]
    assert len(set(paths)) == len(paths), 'duplicate paths'
    manifest = _manifest_text(entries).encode('utf-8')
    (out_dir / 'manifest.json').write_bytes(manifest)
    totals['files'] += 1
    totals['bytes'] += len(manifest)
    totals['disk'] += len(manifest)
    return totals


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='tools/corpusgen',
        description='Write the soapbench corpus (messages of every protocol family, hostile '
                    'inputs, manifest.json). Deterministic: a re-run reproduces every byte. '
                    'Replaces the family directories, hostile/ and manifest.json in --out.')
    parser.add_argument('--out', default=CORPUS_DIR,
                        help='output directory (default: %(default)s)')
    parser.add_argument('--quiet', action='store_true', help='print only the summary')
    parser.add_argument('--jobs', type=int, default=min(os.cpu_count() or 1, len(FAMILIES)),
                        help='processes, one family each (default: %(default)s); the output '
                             'does not depend on it')
    args = parser.parse_args(argv)
    start = time.monotonic()
    totals = generate(args.out, log=(lambda s: None) if args.quiet else print,
                      jobs=args.jobs)
    print('corpusgen: %d files (manifest.json included), %d bytes uncompressed, '
          '%d bytes on disk (%.1f MB) in %s, %.1f s'
          % (totals['files'], totals['bytes'], totals['disk'], totals['disk'] / 1e6,
             args.out, time.monotonic() - start))
    return 0


if __name__ == '__main__':
    sys.exit(main())
