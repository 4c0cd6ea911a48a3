# Shell functions shared by the set-up scripts that start a second engine or an sshd as root (sourced, not run).

# The folder must be this user's own: under /tmp another user could create it first and plant keys, scripts or links
# in it for a root-run script to trust or write through. $1 folder, $2 the script's name, $3 the variable naming it.
own_dir() {
  if [ -L "$1" ]; then
    echo "$2: $1 is a link; remove it or set $3 to another folder." >&2
    exit 1
  fi
  if [ -e "$1" ]; then
    if [ ! -d "$1" ] || [ "$(stat -c %u "$1")" != "$(id -u)" ]; then
      echo "$2: $1 is not a folder of $(id -un)'s; remove it or set $3 to another folder." >&2
      exit 1
    fi
  else
    mkdir -p "$(dirname "$1")"
    mkdir -m 700 "$1"
  fi
  chmod 700 "$1"
}

# Stops the process in pid file $1 if it is still a $2 (a pid left in a stale file may since belong to another
# process), saying "$3", waiting up to $4 seconds for it to end; removes the pid file.
stop_pidfile() {
  if [ -s "$1" ]; then
    local pid
    pid="$(cat "$1")"
    if [ "$(ps -p "$pid" -o comm= 2>/dev/null)" = "$2" ]; then
      echo "$3 (pid $pid)"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 "$4"); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    fi
    rm -f "$1"
  fi
}
