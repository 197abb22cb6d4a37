# Tries to change the world outside its sandbox, then plays on: every write it manages is a file
# the test looks for. $1 is a folder of the runner's, $2 moocow's package.
read hello
for target in "$PWD/vandal-was-here" /tmp/../vandal-was-here "$1/vandal-was-here" "$(dirname "$0")/vandal-was-here"; do
    echo x > "$target" 2>/dev/null
done
for source in "$2"/runner/referee.py "$PWD"/words.txt; do
    echo "# rigged" >> "$source" 2>/dev/null
done
echo 1 > /proc/sys/kernel/printk_ratelimit 2>/dev/null && echo wrote-sysctl >&2
echo "moocow 1"
while read line; do echo 111; done
