#!/usr/bin/env python3
"""fuel-facts: an intent service for FuelBoard's intent-router, in Python with pyzmq only.

    python3 examples/python-intent/service.py --plugins tcp://127.0.0.1:5556

"Ask FuelBoard to tell me about diesel" answers a fact; "Ask FuelBoard for a fuel fact" asks
which fuel first (needsValue), and the user's next utterance answers it.
"""
import argparse
import json
import os
import signal
import time
import uuid

import zmq

FACTS = {
    "E10": "Unleaded (E10) is petrol with up to 10 percent ethanol; it became the UK standard in 2021.",
    "E5": "Super unleaded (E5) has at most 5 percent ethanol and a higher octane rating.",
    "B7": "Diesel (B7) contains up to 7 percent biodiesel.",
    "SDV": "Super diesel is a premium diesel with extra detergents.",
}
INTENTS = [{
    "name": "FuelFact",
    "parameters": [{"name": "fuel", "type": "enum", "values": [
        {"value": "E10", "synonyms": ["unleaded", "petrol"]},
        {"value": "E5", "synonyms": ["super unleaded", "premium unleaded"]},
        {"value": "B7", "synonyms": ["diesel"]},
        {"value": "SDV", "synonyms": ["super diesel", "premium diesel"]}]}],
    "phrases": ["[ask] {app} [to] tell me about {fuel}", "[ask] {app} for a fuel fact"],
    "stages": ["resolve", "handle"],
    "help": "You can also ask me to tell you about a fuel, such as diesel.",
}]


def answer(request):
    """The typed result of one stage."""
    fuel = request["parameters"].get("fuel")
    if request["stage"] == "resolve":
        if fuel is None:
            return {"result": "needsValue", "parameter": "fuel",
                    "dialog": "Which fuel: unleaded, super unleaded, diesel or super diesel?"}
        return {"result": "success"}
    if fuel not in FACTS:
        return {"result": "failure", "dialog": "I don't know that fuel."}
    return {"result": "success", "dialog": FACTS[fuel], "value": fuel}


def stop(*_):
    """SIGTERM ends the service as Ctrl-C does: with a plugin.bye, so the router drops it at once."""
    raise KeyboardInterrupt


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugins", "--router", dest="plugins",
                        default=os.environ.get("FUELBOARD_PLUGINS", "tcp://127.0.0.1:5556"),
                        help="intent-router's plug-in endpoint (its --plugins; not the ask endpoint, :5550)")
    parser.add_argument("--heartbeat-ms", type=int, default=1000)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, stop)
    interval = args.heartbeat_ms / 1000
    instance = f"fuel-facts-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    register = {"v": 1, "type": "plugin.register", "service": "fuel-facts", "instance": instance,
                "intents": INTENTS, "heartbeatMs": args.heartbeat_ms}
    ctx = zmq.Context()
    try:
        serve(ctx, args.plugins, register, instance, interval)
    except KeyboardInterrupt:
        print("fuel-facts: stopping", flush=True)


def serve(ctx, endpoint, register, instance, interval):
    """Registers and answers until interrupted; says goodbye to the router on the way out."""
    sock = None
    try:
        while True:  # one connection per pass; a silent router means a fresh socket and a new register
            if sock is not None:
                sock.close(linger=0)
            sock = ctx.socket(zmq.DEALER)
            sock.setsockopt(zmq.LINGER, 0)
            sock.connect(endpoint)
            interval = serve_connection(sock, endpoint, register, instance, interval)
            print("fuel-facts: router silent, reconnecting", flush=True)
    finally:
        if sock is not None and not sock.closed:
            sock.send_json({"v": 1, "type": "plugin.bye", "instance": instance})
            sock.close(linger=200)


def serve_connection(sock, endpoint, register, instance, interval):
    """One connection: register, then answer requests and exchange heartbeats until the router
    has been silent for 3 intervals. Returns the interval the router agreed."""
    sock.send_json(register)
    registered = False
    last_heard = last_sent = time.monotonic()
    while time.monotonic() - last_heard < 3 * interval:
        if sock.poll(int(interval * 1000 / 4)):
            message = json.loads(sock.recv())
            last_heard = time.monotonic()
            kind = message.get("type")
            if kind == "plugin.request":
                sock.send_json({"v": 1, "type": "plugin.reply", "id": message["id"], **answer(message)})
                last_sent = time.monotonic()
            elif kind == "plugin.refused":
                if message.get("reregister"):
                    registered = False
                    sock.send_json(register)
                elif registered or "id" in message:
                    # About a frame sent since registering (a reply it could not read or use): go on.
                    print(f"fuel-facts: reply refused: {message.get('reason')}", flush=True)
                else:
                    raise SystemExit(f"fuel-facts: registration refused: {message.get('reason')}")
            elif kind == "plugin.registered":
                registered = True
                # The router may clamp the interval asked for: use the one it agreed.
                interval = message.get("heartbeatMs", interval * 1000) / 1000
                print(f"fuel-facts: registered as {instance}", flush=True)
                for warning in message.get("warnings", []):  # members the router did not read
                    print(f"fuel-facts: registration warning: {warning}", flush=True)
            elif kind is None or not str(kind).startswith("plugin."):
                raise SystemExit(f"fuel-facts: {endpoint} answered with something that is not a plug-in "
                                 "message: is it the router's plug-in endpoint (--plugins, default :5556)?")
        if time.monotonic() - last_sent >= interval:
            sock.send_json({"v": 1, "type": "plugin.heartbeat", "instance": instance})
            last_sent = time.monotonic()
    return interval


if __name__ == "__main__":
    main()
