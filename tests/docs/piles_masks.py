"""byexample module for piles' documentation: the fields of piles' output that vary from run to
run or machine to machine (times, rates, memory, build details), masked by the patterns declared
here, and the `slow` mark for examples left to `make results PRESET=full`.

The expected text keeps what piles printed once; before it is compared, every match of a
pattern below has its group 1 replaced by byexample's <...> wildcard. Patterns named in
ALWAYS apply to every example; the others only where an example asks for them with
`<!-- piles-docs: mask=NAME -->` on the line above its code block, invisible where the
Markdown is rendered (byexample's own options are shell comments, which would show)."""

import os
import re

from byexample.concern import Concern

stability = 'experimental'

NUMBER = r'\d[\d,]*(?:\.\d+)?'

MASKS = {
    # "0.31 s", "2.08 s)", "0.5 s of computing": durations.
    'seconds': r'(' + NUMBER + r') s\b',
    # The seconds column of `piles bench`, before its rate.
    'bench_seconds': r'(\d+\.\d{3})  +' + NUMBER + r' (?:[kMGT] )?[a-z ]+/s',
    # "24.5 M nodes/s", "77892 pile sizes/s": rates.
    'rate': r'(' + NUMBER + r' (?:[kMGT] )?)[a-z ]+/s\b',
    # nim's and babylon's "seconds    0.061" and the seconds column of a babylon table.
    'seconds_field': r'seconds +(\d+\.\d+)',
    'seconds_column': r'(?:first|second) +[\d,]+ +(\d+\.\d+)',
    # Resident memory, which depends on the allocator and the C library.
    'rss': r'peak RSS (' + NUMBER + r') MiB',
    'timestamp': r'(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC',
    # What was built, from which commit, with which compiler and for which GPU.
    'build': r'(?m)^(?:commit|build|Topswops CPU path|CUDA build|GPU): (.*)$',
    'bench_header': r'(?m)^piles bench: (.*)$',
    'machine': r'(?m)^(.*logical CPUs.*)$',
    # The lockstep engine's passes and launches depend on how threads share the chunks.
    'lockstep': r'(' + NUMBER + r' warp instructions per node, ' + NUMBER + r' lane use \(.*\))',
}
ALWAYS = ['bench_seconds', 'seconds', 'rate', 'seconds_field', 'seconds_column', 'rss',
          'timestamp', 'build', 'bench_header', 'machine', 'lockstep']
# Asked for by an example. How far a run stopped by --time-limit got, and so what its partial
# answer holds, depends on the machine; so does what the run that resumes it had left to do.
ON_REQUEST = {
    'stopped': [r'(?s)longest game   (.*?)\n  nodes', r'nodes +(' + NUMBER + r')',
                r'(\d+) of \d+ (?:chunks|chip totals)', r'(' + NUMBER + r' of ' + NUMBER + r') starts agree',
                r'(' + NUMBER + r') starts \(stopped', r'memo (' + NUMBER + r') positions',
                r'(' + NUMBER + r') MiB'],
    'resumed': [r'(\d+) of \d+ (?:chunks|chip totals) from', r'memo (' + NUMBER + r') positions',
                r'(' + NUMBER + r') MiB'],
}

WILDCARD = '<...>'
_lines = {}


def file_lines(example):
    if example.filepath not in _lines:
        with open(example.filepath, encoding='utf-8') as f:
            _lines[example.filepath] = f.read().split('\n')
    return _lines[example.filepath]


def whole_output(example):
    """byexample ends an expected output at its first blank line, and piles prints blank lines
    (in --help, in a game of `babylon play`): the output shown runs on to the next `$ ` line or
    the end of the code block."""
    lines = file_lines(example)
    i = example.start_lineno  # the line after the `$ ` line (line numbers count from 1)
    while i < len(lines) and lines[i].startswith('> '):
        i += 1
    output = []
    while i < len(lines) and not lines[i].startswith(('$ ', '```')):
        output.append(lines[i])
        i += 1
    while output and not output[-1].strip():
        output.pop()
    return '\n'.join(output) + '\n' if output else ''


MARK = re.compile(r'^<!-- piles-docs: (.*) -->$')


def marks(example):
    """The words of the `<!-- piles-docs: ... -->` line above the example's code block."""
    lines = file_lines(example)
    i = example.start_lineno - 1
    while i > 0 and not lines[i].startswith('```'):
        i -= 1
    i -= 1
    while i > 0 and not lines[i].strip():
        i -= 1
    found = MARK.match(lines[i]) if i >= 0 else None
    return found.group(1).split() if found else []


def mask(text, patterns):
    for pattern in patterns:
        text = re.sub(pattern, lambda m: m.string[m.start():m.start(1)] + WILDCARD +
                      m.string[m.end(1):m.end()], text)
    return text


class PilesMasks(Concern):
    target = 'piles-masks'

    def before_build_regex(self, example, options):
        patterns = [MASKS[name] for name in ALWAYS]
        for word in marks(example):
            if word.startswith('mask='):
                patterns += ON_REQUEST[word[len('mask='):]]
        example.expected_str = mask(whole_output(example), patterns)

    def finish_parse(self, example, options, exception):
        if exception is None and 'slow' in marks(example) and not os.environ.get('PILES_DOCS_SLOW'):
            # byexample shares one options object among the examples that have none of their
            # own: skip this one only.
            example.options = example.options.copy()
            example.options['skip'] = True
