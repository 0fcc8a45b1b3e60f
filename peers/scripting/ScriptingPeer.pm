# What the Perl scripting servers (soaplite_server.pl, frontier_server.pl) share: their options,
# the "serving" line, the corpus's pre-serialized getChain document, and the server-time split
# (request handling vs sending of every call, written at exit). docs/peers.md
# "Scripting stacks".
package ScriptingPeer;

use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use Getopt::Long qw(GetOptionsFromArray);
use HTTP::Daemon;
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);

# The split of every call, in nanoseconds, in call order.
my %stats = (handling_ns => [], send_ns => []);
my $busy = 0;        # timed calls under way (a stop waits for them to record their time)
my $stopping;        # the stop to run when they have, after a signal came during one

# Now, in nanoseconds (monotonic).
sub now_ns { return clock_gettime(CLOCK_MONOTONIC) * 1e9 }

# Parses @ARGV (--address, --port, --corpus, --stats, --help); returns the settings as a hash
# reference. $usage is printed for --help.
sub options {
    my ($usage) = @_;
    my $here = dirname(File::Spec->rel2abs(__FILE__));
    my %o = (address => '127.0.0.1', port => 0,
             corpus => $ENV{SOAPBENCH_CORPUS} || File::Spec->catdir($here, '..', '..', 'corpus'));
    my $help = 0;
    GetOptionsFromArray(\@ARGV, 'address=s' => \$o{address}, 'port=i' => \$o{port},
                        'corpus=s' => \$o{corpus}, 'stats=s' => \$o{stats}, 'help' => \$help)
      or die "usage: see --help\n";
    if ($help) {
        print $usage, <<'EOF';

  --address ADDR  listen address (default 127.0.0.1)
  --port N        port, 0: any free one (printed on the "serving" line)
  --corpus DIR    corpus directory, for getChain's document (default: $SOAPBENCH_CORPUS or the
                  source tree's corpus/)
  --stats FILE    at exit (SIGTERM, SIGINT), write the server-time split to FILE, one line
                  per call: "HANDLING_NS SEND_NS"
EOF
        exit 0;
    }
    return \%o;
}

# The corpus's getChain response for $family (e.g. "xmlrpc"), as bytes; undef (said on stderr)
# when missing: getChain then answers a fault.
sub chain_document {
    my ($name, $corpus, $family) = @_;
    my $path = File::Spec->catfile($corpus, $family, 'getChain.response.xml');
    if (open(my $f, '<:raw', $path)) {
        local $/;
        return scalar <$f>;
    }
    print STDERR "$name: cannot read $path: $!; getChain answers a fault\n";
    return undef;
}

# The first value of @_ that is not an int's text (the Perl stacks do not check an i4's or an
# xsd:int's text: the operations do, as the contract's service does), or undef.
sub not_int {
    for (@_) { return defined $_ ? $_ : 'nil' unless defined $_ && /^[+-]?\d+$/ }
    return undef;
}

# Wraps the function named $full (e.g. "Frontier::RPC2::serve") so that each call's time is
# recorded under $key ("handling_ns" or "send_ns").
sub time_function {
    my ($full, $key) = @_;
    no strict 'refs';
    no warnings 'redefine';
    my $orig = \&{$full};
    *{$full} = sub {
        my $start = now_ns();
        $busy++;
        my @out = wantarray ? $orig->(@_) : scalar $orig->(@_);
        push @{ $stats{$key} }, now_ns() - $start;
        $busy--;
        $stopping->() if $stopping && !$busy;  # a signal came while this call was timed
        return wantarray ? @out : $out[0];
    };
}

# Times sending: HTTP::Daemon's connection writing the whole response (status, headers, body).
sub time_sending { time_function('HTTP::Daemon::ClientConn::send_response', 'send_ns') }

# On SIGTERM and SIGINT: writes the split to $o->{stats} (if given) and exits 0.
sub stop_on_signals {
    my ($o) = @_;
    my $stop = sub {
        my ($h, $s) = ($stats{handling_ns}, $stats{send_ns});
        if (defined $o->{stats} && open(my $f, '>', $o->{stats})) {
            printf $f "%.0f %.0f\n", $h->[$_], $s->[$_] for 0 .. (@$h < @$s ? $#$h : $#$s);
            close $f;
        }
        exit 0;
    };
    # A signal during a timed call (the client may have its answer before the time is
    # recorded) stops the server once the call's time is recorded.
    my $on_signal = sub { if ($busy) { $stopping = $stop } else { $stop->() } };
    $SIG{TERM} = $on_signal;
    $SIG{INT} = $on_signal;
}

# Prints the one "serving" line (flushed) for the daemon $d.
sub print_serving {
    my ($name, $d, $what) = @_;
    my $host = $d->sockhost;
    $host = "[$host]" if $host =~ /:/;
    local $| = 1;
    printf "%s: serving http://%s:%d (%s)\n", $name, $host, $d->sockport, $what;
}

1;
