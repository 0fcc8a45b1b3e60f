#!/usr/bin/perl
# The three WSDL examples Debian's libsoap-lite-perl ships (examples/WSDL/say_hello_*), played
# for real: a SOAP::Lite server (SOAP::Transport::HTTP::Daemon on 127.0.0.1, a free port, in a
# child stopped by its PID) answers sayHello as each WSDL describes it, and SOAP::Lite clients make
# the calls the example scripts make (say_hello_rpcenc.pl, say_hello_rpclit.pl,
# say_hello_doclit.pl: the same SOAP::Data, autotype and namespace settings). Every request and
# response body is written to OUT_DIR as <style>.call.xml / <style>.response.xml for
# tests/wsdl/test_user_wsdl.py to decode with the matching WSDL.
# Usage: soaplite_hello.pl OUT_DIR
use strict;
use warnings;
use SOAP::Lite;
use SOAP::Transport::HTTP;

my $out = shift or die "usage: $0 OUT_DIR\n";

package HelloWorld;

# rpc/literal sends one `parameters` struct and gets one back; the others send two strings.
sub sayHello {
    my ($class, @args) = @_;
    if (ref $args[0] eq 'HASH') {
        my $p = $args[0];
        return SOAP::Data->name(parameters => \SOAP::Data->value(
            SOAP::Data->name(sayHelloResult => "Hello $p->{givenName} $p->{name}")));
    }
    return SOAP::Data->name(sayHelloResult => "Hello $args[1] $args[0]")->type('string');
}

package main;

my $daemon = SOAP::Transport::HTTP::Daemon->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                                 Reuse => 1)
  or die "soaplite_hello: cannot listen: $!\n";
$daemon->dispatch_to('HelloWorld');
my $url = $daemon->url;
my $pid = fork();
die "soaplite_hello: fork: $!\n" unless defined $pid;
if ($pid == 0) {
    $daemon->handle;
    exit 0;
}


# say_hello_rpclit.pl's client settings around the `parameters` value given.
sub rpclit {
    my @value = @_;
    my $soap = SOAP::Lite->new(proxy => $url);
    $soap->on_action(sub { "urn:HelloWorld#sayHello" });
    $soap->autotype(0)->readable(1);
    $soap->default_ns('urn:HelloWorld');
    return $soap->call('sayHello', SOAP::Data->name('parameters')->value(\SOAP::Data->value(@value)));
}

my %calls = (
    # say_hello_rpcenc.pl: default serializer settings (xsi:type on every value).
    rpcenc => sub {
        my $soap = SOAP::Lite->new(proxy => $url);
        $soap->default_ns('urn:HelloWorld');
        return $soap->call('sayHello', SOAP::Data->name('name')->value('Kutter'),
                           SOAP::Data->name('givenName')->value('Martin'));
    },
    # say_hello_rpclit.pl as shipped: its array reference makes `parameters` hold a
    # soapenc:Array, which its own WSDL (a struct sayHello {name, givenName}) does not declare.
    'rpclit-example' => sub { rpclit([SOAP::Data->name('name')->value('Kutter'),
                                      SOAP::Data->name('givenName')->value('Martin')]) },
    # The same call with the struct its WSDL declares (a list of SOAP::Data, not an array).
    rpclit => sub { rpclit(SOAP::Data->name('name')->value('Kutter'),
                           SOAP::Data->name('givenName')->value('Martin')) },
    # say_hello_doclit.pl
    doclit => sub {
        my $soap = SOAP::Lite->new(proxy => $url);
        $soap->on_action(sub { "urn:HelloWorld#sayHello" });
        $soap->autotype(0)->readable(1);
        $soap->default_ns('urn:HelloWorld');
        return $soap->call('sayHello', SOAP::Data->name('name')->value('Kutter'),
                           SOAP::Data->name('givenName')->value('Martin'));
    },
);

my $status = 0;
for my $style (sort keys %calls) {
    my ($request, $response);
    SOAP::Trace->import(transport => sub {
        my $m = shift;
        if (ref $m eq 'HTTP::Request') { $request = $m->content }
        elsif (ref $m eq 'HTTP::Response') { $response = $m->content }
    });
    my $som = eval { $calls{$style}->() };
    if (!$som || !defined $request || !defined $response) {
        warn "soaplite_hello: $style: no exchange: " . ($@ || 'no trace') . "\n";
        $status = 1;
        next;
    }
    for my $part ([call => $request], [response => $response]) {
        open my $fh, '>', "$out/$style.$part->[0].xml" or die "$out: $!\n";
        print $fh $part->[1];
        close $fh;
    }
}
kill 'TERM', $pid;
waitpid($pid, 0);
exit $status;
