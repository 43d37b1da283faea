-- wrk's summary as one JSON line for runLoad (load.ts): requests, duration (µs), latency percentiles (µs),
-- answers that were not 2xx or 3xx, connection errors, and the CPU time wrk itself used, in clock ticks
-- (utime + stime of /proc/self/stat). Only `done` is defined, so wrk's hot loop runs no Lua per request.
done = function(summary, latency, requests)
  local stat = io.open("/proc/self/stat"):read("*a")
  local fields = {}
  -- Past the command's name in parentheses, fields start at the state (the file's third field).
  for field in stat:match("%) (.*)"):gmatch("%S+") do
    fields[#fields + 1] = field
  end
  local errors = summary.errors
  io.write(string.format(
    '\n{"requests":%d,"duration":%d,"p50":%d,"p99":%d,"non2xx":%d,"errors":%d,"ticks":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), errors.status,
    errors.connect + errors.read + errors.write + errors.timeout, tonumber(fields[12]) + tonumber(fields[13])))
end
