-- wrk script for bench/web_bench.py: GETs spread over many (path, session cookie) pairs.
-- Usage: wrk -t2 -c50 -d10s -s bench/web_wrk.lua http://127.0.0.1:PORT -- requests.lua
-- requests.lua returns a list of {path, cookie}; each request picks one at random.
local reqs = {}

function init(args)
  local list = dofile(args[1])
  for i, r in ipairs(list) do
    local headers = {}
    if r[2] ~= "" then headers["Cookie"] = "sessionid=" .. r[2] end
    reqs[i] = wrk.format("GET", r[1], headers)
  end
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % 100000)
end

function request()
  return reqs[math.random(#reqs)]
end

function done(summary, latency, requests)
  local s = summary
  io.write(string.format(
    "JSON {\"requests\": %d, \"seconds\": %.3f, \"p50_ms\": %.3f, \"p99_ms\": %.3f, " ..
    "\"non2xx\": %d, \"errors\": %d}\n",
    s.requests, s.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    s.errors.status, s.errors.connect + s.errors.read + s.errors.write + s.errors.timeout))
end
