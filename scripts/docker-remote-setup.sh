#!/usr/bin/env bash
# Starts a second Docker engine on this machine that Dockhand reaches the way it reaches a remote one: over TCP with
# TLS on 127.0.0.1, with a data root of its own, so the sandbox cannot bind-mount the workspace and copies it in and
# out instead (the "sync" workspace transport, see docs/sandbox.md). For the remote-engine tests and for trying it out.
#
#   scripts/docker-remote-setup.sh [start]   generates a throwaway CA and certificates, starts the engine, loads the
#                                            sandbox image into it, and writes the variables to use to $DIR/env
#                                            (DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH) and those the tests
#                                            read to $DIR/test-env
#   scripts/docker-remote-setup.sh stop      stops the engine this script started (by its pid file)
#
# Everything lives in $DOCKHAND_REMOTE_DOCKER_DIR (default /tmp/dockhand-remote-docker); the port is
# $DOCKHAND_REMOTE_DOCKER_PORT (default 23760). The engine gets no bridge and no network of any kind
# (--bridge=none, no iptables, no IP forwarding), its own --exec-root (so its own containerd, which dockerd starts
# under it), its own --pidfile, and no unix socket: the engine on the default socket is never touched.
# Needs root (dockerd does), openssl, and the image in the default engine (scripts/build-sandbox-image.sh).
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/setup-common.sh"

dir="${DOCKHAND_REMOTE_DOCKER_DIR:-/tmp/dockhand-remote-docker}"
port="${DOCKHAND_REMOTE_DOCKER_PORT:-23760}"
image="${DOCKHAND_SANDBOX_IMAGE:-dockhand-sandbox:latest}"
pidfile="$dir/dockerd.pid"
certs="$dir/certs"
host="tcp://127.0.0.1:$port"

stop() {
  stop_pidfile "$pidfile" dockerd "docker-remote-setup: stopping the second dockerd" 30
}

remote() {
  docker --host "$host" --tlsverify --tlscacert "$certs/ca.pem" --tlscert "$certs/cert.pem" \
    --tlskey "$certs/key.pem" "$@"
}

certificates() {
  mkdir -p "$certs"
  chmod 700 "$certs"
  local work
  work="$(mktemp -d)"
  # A CA that lives only as long as this folder, a server certificate for 127.0.0.1, a client certificate.
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=dockhand throwaway CA" \
    -keyout "$certs/ca-key.pem" -out "$certs/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$certs/server-key.pem" -out "$work/server.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$work/server.ext"
  openssl x509 -req -days 30 -in "$work/server.csr" -CA "$certs/ca.pem" -CAkey "$certs/ca-key.pem" \
    -CAcreateserial -extfile "$work/server.ext" -out "$certs/server-cert.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=dockhand client" \
    -keyout "$certs/key.pem" -out "$work/client.csr" 2>/dev/null
  printf 'extendedKeyUsage=clientAuth\n' >"$work/client.ext"
  openssl x509 -req -days 30 -in "$work/client.csr" -CA "$certs/ca.pem" -CAkey "$certs/ca-key.pem" \
    -CAcreateserial -extfile "$work/client.ext" -out "$certs/cert.pem" 2>/dev/null
  rm -rf "$work"
  chmod 600 "$certs"/*key.pem
}

start() {
  if [ "$(id -u)" != 0 ]; then
    echo "docker-remote-setup: starting a dockerd needs root; run this script with sudo." >&2
    exit 1
  fi
  command -v dockerd >/dev/null 2>&1 || { echo "docker-remote-setup: dockerd is not installed (scripts/docker-setup.sh)." >&2; exit 1; }
  command -v openssl >/dev/null 2>&1 || { echo "docker-remote-setup: openssl is not installed." >&2; exit 1; }
  own_dir "$dir" docker-remote-setup DOCKHAND_REMOTE_DOCKER_DIR
  stop
  mkdir -p "$dir/data" "$dir/exec"
  [ -s "$certs/cert.pem" ] || certificates
  # An empty configuration, so /etc/docker/daemon.json (the main engine's) is not read.
  echo '{}' >"$dir/daemon.json"
  echo "docker-remote-setup: starting a second dockerd on $host; log in $dir/dockerd.log"
  nohup dockerd \
    --config-file "$dir/daemon.json" \
    --data-root "$dir/data" \
    --exec-root "$dir/exec" \
    --pidfile "$pidfile" \
    --bridge=none --iptables=false --ip-masq=false --ip-forward=false \
    -H "$host" \
    --tlsverify --tlscacert "$certs/ca.pem" --tlscert "$certs/server-cert.pem" --tlskey "$certs/server-key.pem" \
    >"$dir/dockerd.log" 2>&1 &
  local started=$!
  for _ in $(seq 1 60); do
    if remote info >/dev/null 2>&1; then
      break
    fi
    if ! kill -0 "$started" 2>/dev/null; then
      echo "docker-remote-setup: dockerd exited; see $dir/dockerd.log" >&2
      exit 1
    fi
    sleep 1
  done
  remote info >/dev/null 2>&1 || { echo "docker-remote-setup: dockerd did not answer within 60 s; see $dir/dockerd.log" >&2; exit 1; }
  # dockerd writes the pid file itself; the shell's pid of it is the same process.
  [ -s "$pidfile" ] || echo "$started" >"$pidfile"
  if ! remote image inspect "$image" >/dev/null 2>&1; then
    echo "docker-remote-setup: loading $image into it"
    docker save "$image" | remote load >/dev/null
  fi
  cat >"$dir/env" <<EOF
export DOCKER_HOST=$host
export DOCKER_TLS_VERIFY=1
export DOCKER_CERT_PATH=$certs
EOF
  # What the sandbox module's remote-engine tests read (RemoteDocker.java); .ci/run sources it.
  cat >"$dir/test-env" <<EOF
export DOCKHAND_REMOTE_DOCKER_HOST=$host
export DOCKHAND_REMOTE_DOCKER_CERT_PATH=$certs
EOF
  echo "docker-remote-setup: ready (pid $(cat "$pidfile")); use it with: . $dir/env (tests: . $dir/test-env)"
  cat "$dir/env"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac
