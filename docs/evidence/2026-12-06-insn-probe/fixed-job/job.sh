head -c 8000000 /dev/urandom > /tmp/blob
for i in 1 2 3 4; do
  sleep 0.5; echo "mark $(date +%s%N) start $i"
  taskset -c 1 sha256sum /tmp/blob >/dev/null
  sleep 0.5; echo "mark $(date +%s%N) end $i"
done
