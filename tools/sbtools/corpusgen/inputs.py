"""The input values of every message, from fixed seeds (one random.Random per value set)."""

import hashlib
import random

from .contract import DateTime, StyledStr

# Plain ASCII words for "random words" text (a fixed list: no dependence on the system).
WORDS = """
able about above access account across action active actor adapt address admit adult
advance advice after again agency agent agree ahead allow almost alone along already
always amount analyst ancient anger angle animal answer anyone appear apply approach area
argue arrive article artist assume attack author autumn avoid award aware balance banner
basket battle beach beauty become before begin behind believe benefit better beyond
bitter blanket border bottle branch bread breath bridge bright broad brother budget
build burden butter cabin camera campaign candle canvas capital carbon career carpet
castle cattle center century chain chance change chapter charge choice circle citizen
claim class clever climate clock cloud coast coffee collect colony column comfort common
copper corner cotton country couple course cover craft credit crowd cycle damage dance
danger debate decade decide deep degree demand depth design detail device dinner direct
doctor dollar domain double dragon drawer dream driver early earth easy echo economy
editor effort eight either elbow element empire energy engine enough entire equal error
escape estate event every exact expert fabric factor family farmer father feather
figure filter finger forest format fortune frame future galaxy garden gather gentle
giant glass golden govern grain graph gravity green ground growth guitar habit hammer
harbor harvest health heart height hidden history hollow honest horizon humble hunger
island jacket jungle kernel kettle ladder language laser launch layer leader lemon
letter level light limit linen liquid listen little lizard local lumber magnet manner
marble market matter meadow member memory mirror modern moment monkey motion mountain
narrow nation native nature needle network noble normal number object ocean office
orange orbit output oxygen packet paddle palace paper parcel parent pencil people pepper
planet plastic pocket poetry policy powder prairie praise private profit proof public
puzzle quarter question quiet rabbit radio random rapid reason record region remote
report result ribbon river rocket rubber saddle safety salmon sample scheme school
season second secret select sense server shadow shelter signal silver simple sister
socket solid source spirit spring square stable station steady stone story stream
street strong studio summer sunset supply switch symbol system table talent target
temple tender theory thread ticket timber token tomato tower traffic travel trophy
tunnel turtle uncle update useful valley vector velvet vessel village violin visual
voice volume wagon walnut wander warm water wealth weather window winter wisdom wonder
wooden worker yellow zebra
""".split()

SEED_TIME = DateTime('1998-07-17T14:08:55')
KIB = 1024
MIB = 1024 * 1024


def rng(key):
    """A generator seeded from a name, stable across runs and Python versions."""
    return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], 'big'))


def words_text(r, length):
    """Random words, exactly `length` characters (the last word may be cut short)."""
    out, n = [], -1
    while n < length:
        batch = r.choices(WORDS, k=(length - n) // 6 + 1)
        out += batch
        n += sum(map(len, batch)) + len(batch)
    s = ' '.join(out)[:length]
    if s.endswith(' '):
        s = s[:-1] + 'x'
    return s


def ints(key, n):
    r = rng(key)
    return [r.randint(-2**31, 2**31 - 1) for _ in range(n)]


def doubles(key, n):
    # Full-precision doubles (mostly 17 significant digits), no exponent form needed.
    r = rng(key)
    return [r.uniform(-1e6, 1e6) for _ in range(n)]


def strings(key, n):
    r = rng(key)
    return [' '.join(r.choice(WORDS) for _ in range(r.randint(1, 3))) for _ in range(n)]


def blob(key, n):
    return rng(key).randbytes(n)


def _person(pid, name, weight, birthdate, children=()):
    return {'id': pid, 'name': name, 'weight': weight, 'birthdate': DateTime(birthdate),
            'children': list(children)}


def persons():
    """Four people with 2, 0, 3 and 1 children; one child is shared by two parents (the
    same object, so rpc/encoded writes it once as a multiRef)."""
    kid = [_person(11, 'Eva Silva', 18.5, '2012-03-04T05:06:07'),
           _person(12, 'Noah Silva-Chen', 24.25, '2009-11-30T22:15:00'),
           _person(13, 'Mia Chen', 31.0, '2005-06-15T12:00:00'),
           _person(14, 'Liam Chen', 12.125, '2016-01-01T00:00:01'),
           _person(15, 'Zoe Okafor', 40.75, '2001-09-09T09:09:09')]
    return [_person(1, 'Ana Silva', 61.5, '1975-02-14T08:30:00', [kid[0], kid[1]]),
            _person(2, 'Bjorn Larsen', 82.3, '1968-12-31T23:59:59'),
            _person(3, 'Chen Wei', 70.0, '1972-07-17T14:08:55', [kid[1], kid[2], kid[3]]),
            _person(4, 'Dana Okafor', 55.8, '1980-05-01T06:45:30', [kid[4]])]


def persons_sent():
    """persons() as the JSON-RPC vs XML-RPC comparison's client sends them to `complex`:
    birthdates as Python's str(datetime), '1975-02-14 08:30:00' (the shared child stays one
    object)."""
    sent = {}

    def convert(p):
        if id(p) not in sent:
            sent[id(p)] = dict(p, birthdate=p['birthdate'].iso.replace('T', ' '),
                               children=[convert(c) for c in p['children']])
        return sent[id(p)]
    return [convert(p) for p in persons()]


def chain_steps(n):
    """The first n steps of the getChain document (a prefix is stable as n grows)."""
    r = rng('getChain')
    hosts = ['node%02d.dc%d.example.net' % (i, i % 4 + 1) for i in range(1, 33)]
    statuses = ['ok', 'ok', 'ok', 'retry', 'skipped', 'failed']
    steps = []
    minute = 0
    for i in range(1, n + 1):
        minute += r.randint(0, 3)
        day, rest = divmod(minute, 24 * 60)
        start = DateTime('1998-07-%02dT%02d:%02d:%02d' % (17 + day % 14, rest // 60, rest % 60,
                                                          r.randint(0, 59)))
        steps.append({'step': i,
                      'name': '%s-%s' % (r.choice(WORDS), r.choice(WORDS)),
                      'host': r.choice(hosts),
                      'start': start,
                      'duration': r.uniform(0, 5000),
                      'status': r.choice(statuses),
                      'args': [r.choice(WORDS) for _ in range(r.randint(0, 4))]})
    return steps


def document(key, lengths):
    """A Document whose paragraph i holds lengths[i] characters of words."""
    r = rng(key)
    return {'e%d' % (i + 1): {'words': words_text(r, n)} for i, n in enumerate(lengths)}


def word_count(doc):
    return sum(len(p['words'].split()) for p in doc.values())


# ---------------------------------------------------------------- concat variants

SEED_CONCAT = ['Hello', ', ', 'World']
MARKUP_STRINGS = ['if (a < b && b > c) return;', '<tag attr="1">&amp;</tag>',
                  'end of ]]> section']
UNICODE_STRINGS = ['日本語のテキスト、中文字符', ' 😀🚀🎉 ', 'Crème brûlée, naïve façade, Ærøskøbing']


def cdata_strings():
    return [StyledStr(s, xml=[('cdata', s)]) for s in MARKUP_STRINGS]


def charref_strings():
    segs = [[('text', 'caf'), ('dec', 'é'), ('text', ' au lait')],
            [('hex', '中文'), ('text', ' '), ('hex', '😀')],
            [('text', 'say '), ('entity', '"'), ('text', 'hi'), ('entity', '"'),
             ('text', ', it'), ('entity', "'"), ('text', 's '), ('entity', '&'),
             ('text', ' more '), ('dec', '😀')]]
    return [StyledStr(''.join(s for _, s in seg), xml=seg) for seg in segs]


def charref_note():
    """The Envelope attribute of the charrefs variant: references in an attribute value."""
    seg = [('text', 'it'), ('entity', "'"), ('text', 's a '), ('entity', '"'),
           ('text', 'note'), ('entity', '"'), ('text', ' '), ('dec', 'é'), ('hex', '😀')]
    return StyledStr(''.join(s for _, s in seg), xml=seg)


def json_escape_strings():
    raw = ['line1\\nline2\\tend', 'say \\"hi\\" \\\\ a\\/b', 'caf\\u00e9 \\ud83d\\ude00']
    values = ['line1\nline2\tend', 'say "hi" \\ a/b', 'café 😀']
    return [StyledStr(v, json_raw=r) for v, r in zip(values, raw)]


def concatenated(parts):
    """concat's result, keeping each part's representation."""
    value = ''.join(parts)
    xml = json_raw = None
    if any(getattr(p, 'xml', None) for p in parts):
        xml = [seg for p in parts for seg in (getattr(p, 'xml', None) or [('text', p)])]
    if any(getattr(p, 'json_raw', None) for p in parts):
        json_raw = ''.join(p.json_raw for p in parts)
    if xml is None and json_raw is None:
        return value
    return StyledStr(value, xml=xml, json_raw=json_raw)
