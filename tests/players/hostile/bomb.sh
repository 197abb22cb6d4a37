# A fork bomb and a disk filler: it must be stopped by the limits, and the runner must go on.
read hello
echo "moocow 1"
read line
dd if=/dev/zero of=/tmp/fill bs=1M count=1000 2>/dev/null
ls -l /tmp/fill >&2
bomb() { bomb | bomb & }; bomb
sleep 30
