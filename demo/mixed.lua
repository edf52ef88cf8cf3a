-- wrk: one request in five is the heavy endpoint.
math.randomseed(42)
request = function()
  if math.random(5) == 1 then
    return wrk.format("GET", "/heavy")
  end
  return wrk.format("GET", "/light")
end
