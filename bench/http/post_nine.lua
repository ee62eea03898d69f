-- wrk script: POST the nine sample (the contest's 3 x 3 instance) as JSON, every request.
-- With CONNECTION_CLOSE=1 in the environment, every request asks for its own connection.
wrk.method = "POST"
wrk.path = "/solve/nine"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"a":["100","000","000"],"b":["111","111","011"]}'
if os.getenv("CONNECTION_CLOSE") == "1" then
    wrk.headers["Connection"] = "close"
end
