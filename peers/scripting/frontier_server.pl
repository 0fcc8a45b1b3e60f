#!/usr/bin/perl
# frontier_server: the contract's add, concat, echoArray, fail and getChain served by Perl's
# Frontier::RPC (Frontier::Daemon, an HTTP::Daemon) at /RPC2, until SIGTERM or SIGINT.
# Frontier::Daemon answers one request per connection and closes it. getChain answers the corpus's
# pre-serialized XML-RPC document unchanged, after Frontier has parsed and dispatched the call.
# The server time is split with wrappers on the stack's own functions: handling =
# Frontier::RPC2::serve (parse, dispatch, encode), sending = HTTP::Daemon's send_response.
# docs/peers.md "Scripting stacks".
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use lib dirname(File::Spec->rel2abs(__FILE__));
use Frontier::Daemon;
use Frontier::RPC2;
use ScriptingPeer;

my $NAME = 'frontier_server';
my $o = ScriptingPeer::options(
    "$NAME: the soapbench contract's add, concat, echoArray, fail, getChain on Frontier::Daemon\n");
my $chain = ScriptingPeer::chain_document($NAME, $o->{corpus}, 'xmlrpc');
my $chain_called = 0;  # set by getChain: serve's answer is then the stored document

my %methods = (
    add => sub {
        my $bad = ScriptingPeer::not_int(@_[0, 1]);
        die "invalid params: not an int: $bad\n" if defined $bad;
        return $_[0] + $_[1];
    },
    # Frontier would send a string that looks like a number as <i4>: say it is a string.
    concat => sub { return Frontier::RPC2->string(join('', @_)) },
    echoArray => sub { return [@{ $_[0] }, @{ $_[1] }] },
    # Frontier has no way to set a fault from a method: a die is its fault 4, "error executing".
    fail => sub { die "division by zero\n" },
    getChain => sub {
        die "getChain document not loaded\n" unless defined $chain;
        $chain_called = 1;
        return [];
    },
);

{
    no warnings 'redefine';
    my $serve = \&Frontier::RPC2::serve;
    *Frontier::RPC2::serve = sub {
        $chain_called = 0;
        my $xml = $serve->(@_);
        return $chain_called ? $chain : $xml;
    };
}
ScriptingPeer::time_function('Frontier::RPC2::serve', 'handling_ns');
ScriptingPeer::time_sending();
ScriptingPeer::stop_on_signals($o);

# Frontier::Daemon serves from its constructor: the port is printed at its first accept.
package ScriptingFrontierDaemon;
our @ISA = ('Frontier::Daemon');
my $printed = 0;

sub accept {
    my $self = shift;
    ScriptingPeer::print_serving($NAME, $self,
        "Frontier::RPC2, one call per connection") unless $printed++;
    return $self->SUPER::accept(@_);
}

package main;
ScriptingFrontierDaemon->new(LocalAddr => $o->{address}, LocalPort => $o->{port},
                             ReuseAddr => 1, Listen => 64, methods => \%methods)
  or die "$NAME: cannot listen on $o->{address}:$o->{port}: $!\n";
