"""location-cache from a foreign client: puts sent many at a time (they are committed together)
are each acknowledged with the user's preferences, and everything acknowledged is stored, also
across a restart on the same file."""

import pytest

from conftest import ServiceProcess
from fbclient import Client, assert_error

USERS = 300


def start_location_cache(data_dir, log_dir):
    service = ServiceProcess("location-cache", ["--data-dir", data_dir, "--bind", "tcp://127.0.0.1:*"],
                             log_dir / "location-cache.log")
    (endpoint,) = service.wait_for_endpoints("listening")
    return service, endpoint


@pytest.fixture
def location_cache(tmp_path, zmq_context):
    data_dir = tmp_path / "data"
    started = []

    def start():
        service, endpoint = start_location_cache(data_dir, tmp_path)
        started.append(service)
        return service, Client(zmq_context, endpoint)

    yield start
    for service in started:
        service.kill()


def test_pipelinedPuts_areEachAcknowledgedWithPreferences_andAllStored(location_cache):
    service, client = location_cache()
    client.call("preferences.set", {"user": "user-7", "radiusMiles": {"set": 12}, "unit": {"set": "km"}})
    puts = [("location.put", {"user": f"user-{n}", "lat": 50 + n / 1000, "lng": -1 - n / 1000})
            for n in range(USERS)]
    replies = client.pipeline(puts, window=100)
    for n, reply in enumerate(replies):
        assert reply["ok"] is True, reply
        body = reply["body"]
        assert body["stored"] is True
        assert set(body) >= {"stored", "at", "expiresAt", "preferences"}
        expected = {"radiusMiles": 12, "unit": "km"} if n == 7 else {"radiusMiles": 5, "unit": "miles"}
        assert body["preferences"] == expected, f"user-{n}: {body['preferences']}"

    stats = client.call("sys.stats")["details"]
    assert stats["putsInBatches"] == USERS
    assert 1 <= stats["putBatches"] <= USERS

    gets = client.pipeline([("location.get", {"user": f"user-{n}"}) for n in range(USERS)], window=100)
    assert [reply["body"]["lat"] for reply in gets] == [50 + n / 1000 for n in range(USERS)]

    client.close()
    service.stop()
    _, again = location_cache()
    reply = again.call("location.get", {"user": f"user-{USERS - 1}"})
    assert reply["lng"] == -1 - (USERS - 1) / 1000
    again.close()


def test_badPutsAmongGoodOnes_failAlone(location_cache):
    _, client = location_cache()
    requests = [
        ("location.put", {"user": "good-1", "lat": 53.78, "lng": -1.06}),
        ("location.put", {"user": "bad-lat", "lat": 91, "lng": 0}),
        ("location.put", {"user": "good-2", "lat": 51.5, "lng": -0.12}),
        ("location.put", {"user": "", "lat": 51.5, "lng": -0.12}),
        ("location.put", {"user": "good-3", "lat": "north", "lng": -0.12}),
    ]
    replies = client.pipeline(requests, window=10)
    assert replies[0]["ok"] is True and replies[2]["ok"] is True
    for reply in (replies[1], replies[3], replies[4]):
        assert_error(reply, "bad_request")
    assert_error(client.request("location.get", {"user": "bad-lat"}), "not_found")
    assert client.call("location.get", {"user": "good-2"})["lat"] == 51.5
    client.close()


def test_batchFromAForeignClient_answersEachRequestInOrder_andStoresThePuts(location_cache):
    """`sys.batch` as another language sends it: puts (committed together), a bad put, a get of a
    user put in the same batch and of one never seen, all in one frame and answered in one."""
    _, client = location_cache()
    requests = [
        {"v": 1, "id": "put-a", "type": "location.put", "body": {"user": "batch-a", "lat": 53.78, "lng": -1.06}},
        {"v": 1, "id": "put-bad", "type": "location.put", "body": {"user": "batch-b", "lat": 95, "lng": 0}},
        {"v": 1, "id": "put-c", "type": "location.put", "body": {"user": "batch-c", "lat": 51.5, "lng": -0.12}},
        {"v": 1, "id": "get-nobody", "type": "location.get", "body": {"user": "nobody"}},
        {"v": 1, "id": 7, "type": "sys.ping"},
    ]
    reply = client.request("sys.batch", {"requests": requests})
    assert reply["ok"] is True, reply
    replies = reply["body"]["replies"]
    assert [inner["id"] for inner in replies] == ["put-a", "put-bad", "put-c", "get-nobody", 7]
    assert replies[0]["ok"] is True and replies[0]["body"]["stored"] is True
    assert_error(replies[1], "bad_request")
    assert replies[2]["ok"] is True
    assert_error(replies[3], "not_found")
    assert replies[4]["body"]["service"] == "location-cache"

    assert client.call("location.get", {"user": "batch-c"})["lat"] == 51.5
    assert_error(client.request("location.get", {"user": "batch-b"}), "not_found")
    stats = client.call("sys.stats")
    assert stats["requestsByType"]["sys.batch"] == 1
    assert stats["requestsByType"]["location.put"] == 3
    client.close()
