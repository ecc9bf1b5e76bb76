"""The lab's network: one namespace per host, each with a veth pair into a bridge that lives in a
namespace of its own ("switch"), all on one private /24. Nothing is added to the caller's namespace.

    host namespace            switch namespace
    fb-<pid>-lookup1: eth0 <-> p-lookup1 ─┐
    fb-<pid>-router1: eth0 <-> p-router1 ─┼─ br0
    ...                                   ┘

Cutting a host's link sets its switch-side veth down (the cable pulled at the switch): packets to
and from the host are dropped, its TCP connections stay open and nobody is told.
"""

import ctypes
import os
import re
import subprocess

#: Every host of the lab and the last byte of its address.
HOST_ADDRESSES = {
    "ingest": 11,
    "lookup1": 21,
    "lookup2": 22,
    "router1": 31,
    "router2": 32,
    "services": 41,
    "client": 51,
}
HOSTS = tuple(HOST_ADDRESSES)
SWITCH = "switch"
SUBNET = "10.77.0"
CLONE_NEWNET = 0x40000000
NAMESPACE_DIR = "/run/netns"


class Unsupported(Exception):
    """This machine cannot build the lab (no permission, no netns or bridge support)."""


class NetworkError(Exception):
    """An `ip` command failed."""


def ip(*args, check=True):
    """Runs `ip ARGS`; returns its stdout, raises NetworkError with its stderr on failure."""
    result = subprocess.run(["ip", *args], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise NetworkError(f"ip {' '.join(args)}: {result.stderr.strip() or 'exit ' + str(result.returncode)}")
    return result.stdout


def existing_namespaces():
    """The names of the named network namespaces on this machine."""
    names = []
    for line in ip("netns", "list", check=False).splitlines():
        if line.strip():
            names.append(line.split()[0])
    return names


class Network:
    """The namespaces, bridge and veth pairs of one run; `teardown` removes all of them."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.created = []
        self.cut_hosts = set()

    def namespace(self, host):
        return f"{self.prefix}-{host}"

    @staticmethod
    def address(host):
        return f"{SUBNET}.{HOST_ADDRESSES[host]}"

    @staticmethod
    def switch_port(host):
        return f"p-{host}"

    def up(self):
        """Creates the switch and every host; raises Unsupported when the first namespace cannot be made."""
        taken = [name for name in existing_namespaces() if name.startswith(self.prefix + "-")]
        if taken:
            raise NetworkError(f"namespaces with prefix {self.prefix}- already exist ({', '.join(taken)}); "
                               "choose another --prefix or remove them (--clean-stale)")
        switch = self.namespace(SWITCH)
        try:
            self._add_namespace(switch)
            ip("-n", switch, "link", "add", "br0", "type", "bridge")
        except NetworkError as error:
            raise Unsupported(f"cannot create a network namespace with a bridge ({error})") from error
        ip("-n", switch, "link", "set", "lo", "up")
        ip("-n", switch, "link", "set", "br0", "up")
        for host in HOSTS:
            self._add_host(host)

    def _add_namespace(self, name):
        ip("netns", "add", name)
        self.created.append(name)

    def _add_host(self, host):
        name = self.namespace(host)
        switch = self.namespace(SWITCH)
        port = self.switch_port(host)
        self._add_namespace(name)
        ip("-n", switch, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", name)
        ip("-n", switch, "link", "set", port, "master", "br0")
        ip("-n", switch, "link", "set", port, "up")
        ip("-n", name, "addr", "add", f"{self.address(host)}/24", "dev", "eth0")
        ip("-n", name, "link", "set", "eth0", "up")
        ip("-n", name, "link", "set", "lo", "up")

    def cut(self, host):
        """Takes the host's switch port down: its link is cut."""
        ip("-n", self.namespace(SWITCH), "link", "set", self.switch_port(host), "down")
        self.cut_hosts.add(host)

    def restore(self, host):
        """Brings the host's switch port back up."""
        ip("-n", self.namespace(SWITCH), "link", "set", self.switch_port(host), "up")
        self.cut_hosts.discard(host)

    def enter(self, host):
        """Moves the calling thread (and every thread and process it starts later) into the host's namespace."""
        fd = os.open(os.path.join(NAMESPACE_DIR, self.namespace(host)), os.O_RDONLY)
        try:
            if hasattr(os, "setns"):
                os.setns(fd, CLONE_NEWNET)
            else:
                libc = ctypes.CDLL(None, use_errno=True)
                if libc.setns(fd, CLONE_NEWNET) != 0:
                    errno = ctypes.get_errno()
                    raise OSError(errno, f"setns into {self.namespace(host)}: {os.strerror(errno)}")
        finally:
            os.close(fd)

    def pids(self):
        """Processes still running in this run's namespaces."""
        found = []
        for name in self.created:
            for line in ip("netns", "pids", name, check=False).split():
                if line.isdigit():
                    found.append(int(line))
        return found

    def teardown(self):
        """Deletes every namespace this run created (the veths and the bridge go with them); returns problems."""
        problems = []
        for name in reversed(self.created):
            try:
                ip("netns", "del", name)
            except NetworkError as error:
                problems.append(str(error))
        self.created = []
        return problems


_STALE_NAME = re.compile(r"^fb-(\d+)-(" + "|".join(HOSTS + (SWITCH,)) + r")$")


def stale_namespaces():
    """Namespaces left by a run of this lab whose process is gone: `fb-<pid>-<host>` with no such pid."""
    stale = []
    for name in existing_namespaces():
        match = _STALE_NAME.match(name)
        if match and not os.path.exists(f"/proc/{match.group(1)}"):
            stale.append(name)
    return stale
