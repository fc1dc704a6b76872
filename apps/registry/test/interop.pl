#!/usr/bin/perl
# An EPP client nobody here wrote (Debian's libnet-epp-perl) against the test registry:
# TLS with a client certificate, greeting, login, create contact/host/domain, check, info, logout.
# Usage: interop.pl PORT CERT KEY CA CLID PASSWORD DOMAIN_MADE_ELSEWHERE
use strict;
use warnings;
use Net::EPP::Simple;

my ($port, $cert, $key, $ca, $clid, $pw, $other) = @ARGV;
$| = 1;

my $epp = Net::EPP::Simple->new(
	host     => 'localhost',
	port     => $port,
	user     => $clid,
	pass     => $pw,
	cert     => $cert,
	key      => $key,
	verify   => 1,
	ca_file  => $ca,
	timeout  => 10,
	stdobj   => 1,
	stdext   => 1,
	load_config => 0,
);
die "login failed: $Net::EPP::Simple::Code $Net::EPP::Simple::Error\n" unless $epp;
print "login=$Net::EPP::Simple::Code\n";
my $svid = $epp->greeting->getElementsByTagName('svID')->shift->textContent;
print "svID=$svid\n";

sub result { my ($what, $ok) = @_; print "$what=" . ($ok ? 'ok' : "$Net::EPP::Simple::Code " . ($Net::EPP::Simple::Error // '')) . "\n"; }

result('contact', $epp->create_contact({
	id         => 'perl-1',
	postalInfo => { int => { name => 'Perl Client', org => 'CPAN', addr => { street => ['1 Main St'], city => 'Leeds', sp => '', pc => 'LS1', cc => 'GB' } } },
	voice      => '+44.1131234567',
	fax        => '',
	email      => 'perl@example.test',
	authInfo   => 'perl-auth',
}));
result('host2', $epp->create_host({ name => 'ns.perl-dns.example', addrs => [] }));
result('host3', $epp->create_host({ name => 'ns2.perl-dns.example', addrs => [] }));
result('domain', $epp->create_domain({
	name       => 'perl-made.test',
	period     => 2,
	ns         => ['ns.perl-dns.example', 'ns2.perl-dns.example'],
	registrant => 'perl-1',
	contacts   => { admin => 'perl-1', tech => 'perl-1' },
	authInfo   => 'perl-auth',
}));
print "check.perl-made=" . $epp->check_domain('perl-made.test') . "\n";
print "check.free=" . $epp->check_domain('free-name.test') . "\n";

for my $name ('perl-made.test', $other) {
	my $info = $epp->domain_info($name);
	if (!$info) { print "info.$name=$Net::EPP::Simple::Code\n"; next; }
	print "info.$name.ns=" . join(',', @{$info->{ns} || []}) . "\n";
	print "info.$name.status=" . join(',', @{$info->{status} || []}) . "\n";
	print "info.$name.registrant=" . ($info->{registrant} // '') . "\n";
	print "info.$name.DS=" . join(';', @{$info->{DS} || []}) . "\n";
}
print "logout=" . ($epp->logout ? 'ok' : $Net::EPP::Simple::Code) . "\n";
