#!/usr/bin/env bash
# Starts a private sshd on 127.0.0.1 through which Dockhand reaches the second Docker engine
# (scripts/docker-remote-setup.sh) as DOCKER_HOST=ssh://USER@127.0.0.1:PORT, the way it reaches an engine on another
# machine: by running the system ssh with the remote command `docker system dial-stdio` for each connection. For the
# ssh:// tests and for trying it out (see docs/sandbox.md).
#
#   scripts/ssh-remote-setup.sh [start]   generates a host key and client keys, starts sshd on a free port from
#                                         23722 up, and writes the variables the tests read to $DIR/test-env
#   scripts/ssh-remote-setup.sh stop      stops the sshd this script started (by its pid file)
#
# Everything lives in $DOCKHAND_REMOTE_SSH_DIR (default /tmp/dockhand-remote-ssh): its own sshd_config, host key,
# AuthorizedKeysFile and pid file, so neither the machine's sshd (not started, /etc/ssh not changed) nor anyone's
# ~/.ssh is used. The client side is $DIR/bin/ssh, which runs the system ssh with -F $DIR/ssh_config (the generated
# key, $DIR/known_hosts, no agent): a run puts $DIR/bin first on its PATH and nothing reads ~/.ssh.
#
# The generated key may run only `docker system dial-stdio` (its forced command refuses any other), pointed at the
# second engine over TCP with TLS: that engine has its own data root, so the workspace cannot be mounted and the
# sync transport is exercised. A second key, $DIR/no-docker_key, reaches a side where docker is not on the PATH.
# Needs root (sshd does), ssh-keygen, sshd (Debian's openssh-server) and a started
# scripts/docker-remote-setup.sh (read from $DOCKHAND_REMOTE_DOCKER_DIR, default /tmp/dockhand-remote-docker).
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/setup-common.sh"

dir="${DOCKHAND_REMOTE_SSH_DIR:-/tmp/dockhand-remote-ssh}"
engine_dir="${DOCKHAND_REMOTE_DOCKER_DIR:-/tmp/dockhand-remote-docker}"
pidfile="$dir/sshd.pid"

stop() {
  stop_pidfile "$pidfile" sshd "ssh-remote-setup: stopping the private sshd" 10
}

free_port() {
  local port
  for port in $(seq 23722 23799); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  echo "ssh-remote-setup: no free port between 23722 and 23799" >&2
  exit 1
}

start() {
  if [ "$(id -u)" != 0 ]; then
    echo "ssh-remote-setup: starting an sshd that logs users in needs root; run this script with sudo." >&2
    exit 1
  fi
  local sshd ssh
  sshd="$(command -v sshd || echo /usr/sbin/sshd)"
  [ -x "$sshd" ] || { echo "ssh-remote-setup: sshd is not installed (apt-get install openssh-server)." >&2; exit 1; }
  ssh="$(command -v ssh)" || { echo "ssh-remote-setup: the ssh client is not installed." >&2; exit 1; }
  [ -s "$engine_dir/env" ] || { echo "ssh-remote-setup: start scripts/docker-remote-setup.sh first ($engine_dir/env is missing)." >&2; exit 1; }
  own_dir "$dir" ssh-remote-setup DOCKHAND_REMOTE_SSH_DIR
  stop
  mkdir -p "$dir/bin" "$dir/docker-config"
  # Fresh keys each time (only this script's own files are removed; ssh-keygen would ask before overwriting).
  rm -f "$dir"/host_key "$dir"/client_key "$dir"/no-docker_key "$dir"/*_key.pub "$dir"/host_key.pub "$dir/test-env"
  chmod 700 "$dir"
  local user port
  user="$(id -un)"
  port="$(free_port)"

  ssh-keygen -q -t ed25519 -N '' -C "dockhand test sshd" -f "$dir/host_key"
  ssh-keygen -q -t ed25519 -N '' -C "dockhand test client" -f "$dir/client_key"
  ssh-keygen -q -t ed25519 -N '' -C "dockhand test client without docker" -f "$dir/no-docker_key"

  # The far side of the connection: `docker system dial-stdio` against the second engine, and nothing else, so a
  # test also fails if Dockhand asked for another remote command.
  # shellcheck disable=SC1091
  . "$engine_dir/env"
  cat >"$dir/dial-stdio" <<EOF
#!/bin/sh
if [ "\$SSH_ORIGINAL_COMMAND" != "docker system dial-stdio" ]; then
  echo "dockhand test sshd: only 'docker system dial-stdio' runs here, not '\$SSH_ORIGINAL_COMMAND'" >&2
  exit 1
fi
export DOCKER_HOST=$DOCKER_HOST DOCKER_TLS_VERIFY=$DOCKER_TLS_VERIFY DOCKER_CERT_PATH=$DOCKER_CERT_PATH
export DOCKER_CONFIG=$dir/docker-config
exec docker system dial-stdio
EOF
  chmod 755 "$dir/dial-stdio"
  {
    echo "restrict,command=\"$dir/dial-stdio\" $(cat "$dir/client_key.pub")"
    # A host where docker is not installed: what the user sees then is env's own line.
    echo "restrict,command=\"env PATH=/nonexistent docker system dial-stdio\" $(cat "$dir/no-docker_key.pub")"
  } >"$dir/authorized_keys"

  cat >"$dir/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
PidFile $pidfile
AuthorizedKeysFile $dir/authorized_keys
AuthorizedPrincipalsFile none
AllowUsers $user
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
HostbasedAuthentication no
UsePAM no
StrictModes no
AllowTcpForwarding no
AllowStreamLocalForwarding no
AllowAgentForwarding no
X11Forwarding no
PermitTTY no
PermitUserEnvironment no
PrintMotd no
MaxStartups 100
# Debian's bash reads ~/.bashrc for a command run over ssh when it is the first shell; SHLVL=1 makes it the second,
# so that the forced command starts in milliseconds whatever the user's ~/.bashrc does (pyenv init takes seconds).
SetEnv SHLVL=1
LogLevel VERBOSE
EOF
  # Debian's sshd needs its privilege-separation folder, which the service would create.
  mkdir -p /run/sshd
  chmod 755 /run/sshd
  "$sshd" -t -f "$dir/sshd_config"
  "$sshd" -f "$dir/sshd_config" -E "$dir/sshd.log"
  for _ in $(seq 1 50); do [ -s "$pidfile" ] && break; sleep 0.1; done
  [ -s "$pidfile" ] || { echo "ssh-remote-setup: sshd did not start; see $dir/sshd.log" >&2; exit 1; }

  echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$dir/host_key.pub")" >"$dir/known_hosts"
  cat >"$dir/ssh_config" <<EOF
Host *
  IdentityFile $dir/client_key
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile $dir/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  UpdateHostKeys no
  ControlMaster no
  ControlPath none
  LogLevel ERROR
EOF
  cat >"$dir/bin/ssh" <<EOF
#!/bin/sh
exec $ssh -F $dir/ssh_config "\$@"
EOF
  chmod 755 "$dir/bin/ssh"

  if ! PATH="$dir/bin:$PATH" ssh -o BatchMode=yes -T -l "$user" -p "$port" -- 127.0.0.1 docker system dial-stdio \
      </dev/null >/dev/null 2>"$dir/check.err"; then
    echo "ssh-remote-setup: ssh through the private sshd failed: $(tail -n 1 "$dir/check.err"); see $dir/sshd.log" >&2
    exit 1
  fi
  # What the sandbox module's ssh tests read (RemoteSsh.java); .ci/run sources it.
  cat >"$dir/test-env" <<EOF
export DOCKHAND_REMOTE_SSH_HOST=ssh://$user@127.0.0.1:$port
export DOCKHAND_REMOTE_SSH_DIR=$dir
EOF
  echo "ssh-remote-setup: ready (sshd pid $(cat "$pidfile"), port $port); try it with:"
  echo "  PATH=$dir/bin:\$PATH DOCKER_HOST=ssh://$user@127.0.0.1:$port docker version"
  echo "  (tests: . $dir/test-env)"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac
