"""Runs every service command line of the deployment files through the real binary's
`--check-config`, with the environment its systemd unit, compose service or pod would give it and
the files its ConfigMap volumes would hold, so a misspelt flag, a bare duration, an endpoint that is
not one or a feeds file mounted elsewhere fails here and not at start-up; then checks that each
store's data directory is on its volume (StateDirectory=, a compose volume, a PersistentVolumeClaim),
that no two endpoints are bound on one port, and that every endpoint a service connects to is a
port the service it means binds for it, on a host that reaches it (its compose service, a
Kubernetes Service selecting its pods; systemd's hosts are the operator's).

    python deploy-commands.py BIN_DIR systemd DEPLOY_SYSTEMD_DIR
    python deploy-commands.py BIN_DIR compose COMPOSE_FILE
    python deploy-commands.py BIN_DIR kubernetes RENDERED_YAML

Prints one line per problem; exits 1 if there was any.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

import yaml

SERVICES = {"price-ingest", "fuel-lookup", "location-cache", "dialog-renderer", "intent-router"}
STATEFUL = {"price-ingest", "location-cache"}
# Where a client's setting must lead: (client, its setting) -> (server, the setting it binds).
LEADS_TO = {
    ("fuel-lookup", "ingest"): ("price-ingest", "bind"),
    ("fuel-lookup", "ingest-pub"): ("price-ingest", "bind-pub"),
    ("intent-router", "lookup"): ("fuel-lookup", "bind"),
    ("intent-router", "location"): ("location-cache", "bind"),
    ("intent-router", "dialog"): ("dialog-renderer", "bind"),
}
problems = []
seen = {}  # service -> the settings its --check-config printed
reachable_as = {}  # service -> the host names others reach it by (compose service, Kubernetes Service)


def check(where, argv, env, rewrite=lambda arg: arg):
    """The settings `--check-config` prints for `argv` under `env`, or None (a problem recorded)."""
    binary = os.path.join(BIN_DIR, argv[0])
    command = [binary] + [rewrite(arg) for arg in argv[1:]] + ["--check-config"]
    result = subprocess.run(command, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env},
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        said = (result.stderr or result.stdout).strip().splitlines()
        problems.append(f"{where}: `{shlex.join(argv)}` does not start (exit {result.returncode}): "
                        + (said[-1] if said else "no output"))
        return None
    settings = dict(line.split("=", 1) for line in result.stdout.splitlines()[1:] if "=" in line)
    seen[argv[0]] = settings
    return settings


def host_and_port(endpoint):
    """("fuel-lookup", "5553") for tcp://fuel-lookup:5553; (None, None) for anything else."""
    match = re.fullmatch(r"tcp://(.+):(\d+)", endpoint.strip())
    return match.groups() if match else (None, None)


def port(endpoint):
    return host_and_port(endpoint)[1]


def names_server(name, names):
    """`name` is one of `names`, or one of them qualified (`fuel-lookup.fuelboard.svc`)."""
    return any(name == known or name.startswith(known + ".") for known in names)


def connections_lead_to_binds(where):
    """Each endpoint a service connects to is a port its server binds (a publisher's, not its
    request port: a replica subscribed to 5551 gets nothing and says nothing)."""
    for (client, setting), (server, bind) in LEADS_TO.items():
        if client not in seen or server not in seen:
            continue
        bound = port(seen[server].get(bind, ""))
        for endpoint in seen[client].get(setting, "").split(","):
            if endpoint and port(endpoint) != bound:
                problems.append(f"{where}: {client}'s {setting} {endpoint} is not the port {server} binds for it "
                                f"({bind} {seen[server].get(bind)})")
            names = reachable_as.get(server)
            if endpoint and names and not names_server(host_and_port(endpoint)[0] or "", names):
                problems.append(f"{where}: {client}'s {setting} {endpoint} names no host {server} is reached by "
                                f"({', '.join(sorted(names))})")


def on_volume(where, settings, mounts):
    """A store's data directory must be one of `mounts` or under one."""
    data_dir = (settings or {}).get("data-dir")
    if data_dir is None:
        return
    if not any(data_dir == mount or data_dir.startswith(mount.rstrip("/") + "/") for mount in mounts):
        problems.append(f"{where}: data directory {data_dir} is on no volume (mounted: {', '.join(mounts) or 'none'})")


# ---------------------------------------------------------------- systemd
def environment_file(path):
    """KEY=VALUE lines as systemd reads them (comments, blank lines and one level of quotes)."""
    values = {}
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            key, value = line.split("=", 1)
            words = shlex.split(value) if value else []
            values[key.strip()] = " ".join(words)
    return values


def systemd(directory):
    env = environment_file(os.path.join(directory, "topology.env"))
    for name in sorted(os.listdir(directory)):
        match = re.fullmatch(r"fuelboard-(.+)\.service", name)
        if not match or match.group(1) not in SERVICES:
            continue
        unit = open(os.path.join(directory, name)).read()
        where = f"systemd {name}"
        exec_start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1).replace("%S", "/var/lib")
        argv = []
        for word in exec_start.split():
            if word.startswith("$"):
                argv += env.get(word[1:].strip("{}"), "").split()  # $VAR: split into words, as systemd does
            else:
                argv.append(word)
        argv[0] = os.path.basename(argv[0])
        # /etc/fuelboard is what deploy/systemd/install fills from this directory (topology.env).
        settings = check(where, argv, env, rewrite=lambda arg: re.sub(r"^/etc/fuelboard(?=/|$)", directory, arg))
        if match.group(1) in STATEFUL:
            state = re.search(r"^StateDirectory=(.*)$", unit, re.M)
            on_volume(where + " (StateDirectory=)", settings, ["/var/lib/" + state.group(1)] if state else [])


# ---------------------------------------------------------------- compose
def compose_value(value):
    """`${VAR:-default}` as compose reads it with VAR unset."""
    return re.sub(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?::?-([^}]*))?\}", lambda m: m.group(1) or "", str(value))


def compose(path):
    document = yaml.safe_load(open(path))
    for name, service in sorted((document.get("services") or {}).items()):
        command = service.get("command")
        if isinstance(command, str):
            command = shlex.split(command)
        if not command or command[0] not in SERVICES:
            continue
        environment = service.get("environment") or {}
        if isinstance(environment, list):
            environment = dict(item.split("=", 1) for item in environment if "=" in item)
        env = {key: compose_value(value) for key, value in environment.items() if value is not None}
        settings = check(f"compose services.{name}", [compose_value(word) for word in command], env)
        reachable_as.setdefault(command[0], set()).add(name)
        if command[0] in STATEFUL:
            mounts = [str(volume).split(":")[1] for volume in service.get("volumes") or [] if ":" in str(volume)]
            on_volume(f"compose services.{name}", settings, mounts)


# ---------------------------------------------------------------- kubernetes
def kubernetes(path):
    documents = [d for d in yaml.safe_load_all(open(path)) if d]
    configmaps = {d["metadata"]["name"]: d.get("data") or {} for d in documents if d["kind"] == "ConfigMap"}
    services = [d for d in documents if d["kind"] == "Service"]
    for deployment in (d for d in documents if d["kind"] == "Deployment"):
        pod = deployment["spec"]["template"]["spec"]
        labels = (deployment["spec"]["template"].get("metadata") or {}).get("labels") or {}
        selecting = {service["metadata"]["name"] for service in services
                     if (service["spec"].get("selector") or {}).items() <= labels.items()
                     and service["spec"].get("selector")}
        volumes = {volume["name"]: volume for volume in pod.get("volumes") or []}
        for container in pod.get("containers") or []:
            argv = list(container.get("command") or []) + list(container.get("args") or [])
            if not argv or argv[0] not in SERVICES:
                continue
            where = f"deployment/{deployment['metadata']['name']} container {container['name']}"
            env = {}
            for source in container.get("envFrom") or []:
                env.update(configmaps.get(source.get("configMapRef", {}).get("name"), {}))
            for variable in container.get("env") or []:
                if "value" in variable:
                    env[variable["name"]] = str(variable["value"])
            with tempfile.TemporaryDirectory() as root:
                # Each ConfigMap volume's files, where the pod would see them.
                rewrites, claims = [], []
                for mount in container.get("volumeMounts") or []:
                    volume = volumes.get(mount["name"], {})
                    if "configMap" in volume:
                        local = os.path.join(root, mount["name"])
                        os.makedirs(local)
                        for key, text in configmaps.get(volume["configMap"]["name"], {}).items():
                            with open(os.path.join(local, key), "w") as file:
                                file.write(text)
                        rewrites.append((mount["mountPath"].rstrip("/"), local))
                    elif "persistentVolumeClaim" in volume:
                        claims.append(mount["mountPath"])

                def rewrite(arg):
                    for mount, local in rewrites:
                        if arg == mount or arg.startswith(mount + "/"):
                            return local + arg[len(mount):]
                    return arg

                settings = check(where, argv, env, rewrite)
            reachable_as.setdefault(argv[0], set()).update(selecting)
            if argv[0] in STATEFUL:
                on_volume(where + " (PersistentVolumeClaim)", settings, claims)


def binds_distinct(where, one_host):
    """No two endpoints bound on one port: within a service, and across them all on one host (systemd)."""
    owners = {}
    for service, settings in sorted(seen.items()):
        for key in ("bind", "bind-pub", "plugins"):
            bound = port(settings.get(key, ""))
            if bound is None:
                continue
            scope = "host" if one_host else service
            other = owners.setdefault((scope, bound), f"{service} {key}")
            if other != f"{service} {key}":
                problems.append(f"{where}: {service} {key} and {other} both bind port {bound}")


BIN_DIR = sys.argv[1]
{"systemd": systemd, "compose": compose, "kubernetes": kubernetes}[sys.argv[2]](sys.argv[3])
binds_distinct(f"{sys.argv[2]} {sys.argv[3]}", one_host=sys.argv[2] == "systemd")
connections_lead_to_binds(f"{sys.argv[2]} {sys.argv[3]}")
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
