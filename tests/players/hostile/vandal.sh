# Tries to change the world outside its sandbox, then plays on: every write it manages is a file
# the test looks for. $1 is a folder of the runner's, $2 moocow's package.
read hello
for target in "$PWD/vandal-was-here" /tmp/../vandal-was-here "$1/vandal-was-here" "$(dirname "$0")/vandal-was-here"; do
    echo x > "$target" 2>/dev/null
done
for source in "$2"/runner/referee.py "$PWD"/words.txt; do
    echo "# rigged" >> "$source" 2>/dev/null
done
# A kernel setting, written back with the value it has (so the machine is the same even if it works).
value=$(cat /proc/sys/kernel/printk_ratelimit)
if (echo "$value" > /proc/sys/kernel/printk_ratelimit) 2>/dev/null; then sysctl=written; else sysctl=refused; fi
echo "moocow 1 sysctl-$sysctl"
while read line; do echo 111; done
