"""A private Postfix instance for tests: its own configuration, queue and
log in a temporary directory, listening for SMTP on a loopback port,
delivering one domain by LMTP to the pbem listener and relaying everything
else to a sink.  It never touches the system's Postfix (``/etc/postfix``,
``/var/spool/postfix``, port 25).

Postfix needs root (its daemons drop privileges to the ``postfix`` user);
:func:`unavailable` says why it cannot run here, for ``pytest.skip``.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

POSTFIX = "/usr/sbin/postfix"
POSTQUEUE = "/usr/sbin/postqueue"

#: how often Postfix retries deferred mail, in seconds (short, for tests)
RETRY_SECONDS = 2

MAIN_CF = """\
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
maillog_file = {root}/maillog
maillog_file_prefixes = {root}
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.{domain}
mydomain = {domain}
myorigin = $myhostname
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_peername_lookup = no
mydestination =
local_recipient_maps =
local_transport = error:5.1.1 no local delivery here
alias_maps =
alias_database =
relay_domains = {domain}
transport_maps = texthash:{root}/etc/transport
relayhost = [127.0.0.1]:{sink_port}
smtputf8_enable = no
biff = no
smtp_tls_security_level = none
smtpd_tls_security_level = none
lmtp_tls_security_level = none
queue_run_delay = {retry}s
minimal_backoff_time = {retry}s
maximal_backoff_time = {retry}s
"""

TRANSPORT = "{domain} lmtp:inet:[127.0.0.1]:{lmtp_port}\n"

# master.cf: the standard services, none chrooted (the queue is a temporary
# directory), SMTP on a loopback port of our own instead of port 25.
MASTER_CF = """\
127.0.0.1:{smtp_port} inet n - n - - smtpd
pickup     unix  n - n 60    1 pickup
cleanup    unix  n - n -     0 cleanup
qmgr       unix  n - n 300   1 qmgr
rewrite    unix  - - n -     - trivial-rewrite
bounce     unix  - - n -     0 bounce
defer      unix  - - n -     0 bounce
trace      unix  - - n -     0 bounce
verify     unix  - - n -     1 verify
flush      unix  n - n 1000? 0 flush
proxymap   unix  - - n -     - proxymap
proxywrite unix  - - n -     1 proxymap
smtp       unix  - - n -     - smtp
relay      unix  - - n -     - smtp
showq      unix  n - n -     - showq
error      unix  - - n -     - error
retry      unix  - - n -     - error
discard    unix  - - n -     - discard
lmtp       unix  - - n -     - lmtp
anvil      unix  - - n -     1 anvil
scache     unix  - - n -     1 scache
postlog    unix-dgram n - n - 1 postlogd
"""


def unavailable() -> str | None:
    """Why a private Postfix cannot run here, or None when it can."""
    if not os.access(POSTFIX, os.X_OK):
        return (f"Postfix is not installed ({POSTFIX} is missing); .ci/run installs Debian's postfix package "
                "when it runs as root with apt-get")
    if os.geteuid() != 0:
        return "Postfix must be started as root (its daemons then drop to the postfix user); run the tests as root"
    try:
        pwd.getpwnam("postfix")
    except KeyError:
        return "there is no 'postfix' user; install Debian's postfix package"
    return None


@dataclass
class PrivatePostfix:
    """One Postfix instance: SMTP in on ``smtp_port``; mail for ``domain``
    to the LMTP server on ``lmtp_port``; everything else to ``sink_port``."""

    domain: str
    smtp_port: int
    lmtp_port: int
    sink_port: int
    root: Path = field(init=False)

    def __post_init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="pbem-postfix-"))
        self.root.chmod(0o755)  # the postfix user reads the maps and writes the queue below it
        values = dict(root=self.root, domain=self.domain, smtp_port=self.smtp_port, lmtp_port=self.lmtp_port,
                      sink_port=self.sink_port, retry=RETRY_SECONDS)
        self.config.mkdir()
        (self.config / "main.cf").write_text(MAIN_CF.format(**values))
        (self.config / "master.cf").write_text(MASTER_CF.format(**values))
        (self.config / "transport").write_text(TRANSPORT.format(**values))
        (self.root / "queue").mkdir(mode=0o755)  # root's; 'postfix start' makes what is inside
        owner = pwd.getpwnam("postfix")
        (self.root / "data").mkdir(mode=0o700)
        os.chown(self.root / "data", owner.pw_uid, owner.pw_gid)

    @property
    def config(self) -> Path:
        """The configuration directory (``postfix -c``)."""
        return self.root / "etc"

    def _run(self, *command: str) -> str:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr or done.stdout}\n"
                               f"{self.log()}")
        return done.stdout

    def start(self) -> None:
        self._run(POSTFIX, "-c", str(self.config), "start")

    def stop(self) -> None:
        """Stop the instance (if it runs) and remove its directory."""
        subprocess.run([POSTFIX, "-c", str(self.config), "stop"], capture_output=True, timeout=60)
        deadline = time.monotonic() + 10
        pid_file = self.root / "queue" / "pid" / "master.pid"
        while pid_file.exists() and _alive(pid_file) and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(self.root, ignore_errors=True)

    def flush(self) -> None:
        """Try every deferred message again now (``postqueue -f``)."""
        self._run(POSTQUEUE, "-c", str(self.config), "-f")

    def queue(self) -> list[dict]:
        """The messages in the queue, as ``postqueue -j`` lists them."""
        return [json.loads(line) for line in self._run(POSTQUEUE, "-c", str(self.config), "-j").splitlines() if line]

    def log(self) -> str:
        """Postfix's own log, to show when a test fails."""
        try:
            return (self.root / "maillog").read_text(errors="replace")
        except OSError:
            return "(no Postfix log)"


def _alive(pid_file: Path) -> bool:
    try:
        os.kill(int(pid_file.read_text().split()[0]), 0)
    except (OSError, ValueError, IndexError):
        return False
    return True
