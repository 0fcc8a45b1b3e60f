#!/usr/bin/perl
# soaplite_server: the contract's add, concat, echoArray, fail and getChain in SOAP 1.1
# rpc/encoded (namespace urn:soapbench) served by Perl's SOAP::Lite
# (SOAP::Transport::HTTP::Daemon, an HTTP::Daemon: one connection at a time, kept alive) at any
# path (soapbench's client posts to /soap), until SIGTERM or SIGINT. getChain answers the corpus's
# pre-serialized soap11-rpc-encoded document unchanged, after SOAP::Lite has parsed and dispatched
# the call. The server time is split with wrappers on the stack's own functions: handling =
# SOAP::Transport::HTTP::Server::handle (parse, dispatch, encode), sending = HTTP::Daemon's
# send_response. docs/peers.md "Scripting stacks".
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use lib dirname(File::Spec->rel2abs(__FILE__));
use SOAP::Transport::HTTP;
use ScriptingPeer;

my $NAME = 'soaplite_server';
my $o = ScriptingPeer::options(
    "$NAME: the soapbench contract's add, concat, echoArray, fail, getChain on SOAP::Lite\n");
my $chain = ScriptingPeer::chain_document($NAME, $o->{corpus}, 'soap11-rpc-encoded');
my $chain_called = 0;  # set by getChain: SOAP::Server's answer is then the stored document

# The operations: SOAP::Lite calls them as class methods (first argument the class). Results are
# named `return` and typed as the contract says (SOAP::Lite would guess a type and a name).
package Soapbench;

# A SOAP fault as the contract writes it: faultcode, faultstring, detail/ns1:fault/code.
sub fault {
    my ($faultcode, $code, $message) = @_;
    return SOAP::Fault->faultcode($faultcode)->faultstring($message)->faultdetail(
        SOAP::Data->name(fault => \SOAP::Data->name(code => $code)->type('int'))
          ->uri('urn:soapbench'));
}

sub add {
    my (undef, $a, $b) = @_;
    my $bad = ScriptingPeer::not_int($a, $b);
    die fault('Client', -32602, "invalid params: not an int: $bad") if defined $bad;
    return SOAP::Data->name(return => $a + $b)->type('int');
}

sub concat {
    shift;
    return SOAP::Data->name(return => join('', @_))->type('string');
}

sub echoArray {
    my (undef, $a, $b) = @_;
    my @items = map { SOAP::Data->name(item => $_)->type('int') } @{ $a || [] }, @{ $b || [] };
    return SOAP::Data->name(return => \@items);  # SOAP::Lite adds soapenc:Array, xsd:int[N]
}

# The contract's fault: Server, "division by zero", detail/ns1:fault/code 4.
sub fail { die fault('Server', 4, 'division by zero') }

sub getChain {
    die fault('Server', -32603, 'getChain document not loaded') unless defined $chain;
    $chain_called = 1;
    return;
}

package main;

{
    no warnings 'redefine';
    my $handle = \&SOAP::Server::handle;
    *SOAP::Server::handle = sub {
        $chain_called = 0;
        my @out = $handle->(@_);
        return $chain_called ? $chain : $out[0];
    };
}
ScriptingPeer::time_function('SOAP::Transport::HTTP::Server::handle', 'handling_ns');
ScriptingPeer::time_sending();
ScriptingPeer::stop_on_signals($o);

my $daemon = SOAP::Transport::HTTP::Daemon->new(
    LocalAddr => $o->{address}, LocalPort => $o->{port}, ReuseAddr => 1, Listen => 64)
  or die "$NAME: cannot listen on $o->{address}:$o->{port}: $!\n";
$daemon->dispatch_with({'urn:soapbench' => 'Soapbench'});
ScriptingPeer::print_serving($NAME, $daemon->{_daemon},
    "SOAP::Lite $SOAP::Lite::VERSION, soap11-rpc-encoded, one connection at a time");
$daemon->handle;
