"""A session of the official Kubernetes Python client (Debian's python3-kubernetes) against a server.

Usage: k8s_session.py <kubeconfig> <namespace>

Runs ConfigMap CRUD (CoreV1Api), Lease CRUD (CoordinationV1Api) and a ConfigMap watch in the
namespace, which must exist. Prints one JSON document with what the server answered and exits 0;
on the first failure prints the error on stderr and exits 1.
"""

import json
import sys
import threading
import traceback
from datetime import datetime, timezone

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException


def expect_status(call, code):
    """Runs call, which must fail with HTTP `code`; returns the Status body as a dict."""
    try:
        call()
    except ApiException as e:
        if e.status != code:
            raise
        return json.loads(e.body)
    raise AssertionError("expected HTTP %d, the call succeeded" % code)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def configmap_crud(core, ns):
    created = core.create_namespaced_config_map(
        ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-cm", labels={"app": "py"}), data={"a": "1"})
    )
    check(created.metadata.uid, "created has a uid")
    read = core.read_namespaced_config_map("py-cm", ns)
    check(read.data == {"a": "1"}, "read data %r" % read.data)
    read.data["b"] = "2"
    replaced = core.replace_namespaced_config_map("py-cm", ns, read)
    check(replaced.data == {"a": "1", "b": "2"}, "replaced data %r" % replaced.data)
    stale = expect_status(lambda: core.replace_namespaced_config_map("py-cm", ns, read), 409)
    # A dict body is sent as a strategic merge patch, a list as a JSON patch.
    patched = core.patch_namespaced_config_map("py-cm", ns, {"data": {"c": "3"}})
    patched = core.patch_namespaced_config_map("py-cm", ns, [{"op": "remove", "path": "/data/a"}])
    listed = core.list_namespaced_config_map(ns, label_selector="app=py")
    deleted = core.delete_namespaced_config_map("py-cm", ns)
    missing = expect_status(lambda: core.read_namespaced_config_map("py-cm", ns), 404)
    return {
        "created": created.metadata.name,
        "replaced": replaced.data,
        "staleReplace": {"reason": stale["reason"], "message": stale["message"]},
        "patched": patched.data,
        "listed": [c.metadata.name for c in listed.items],
        "deleted": deleted.status,
        "missing": {"reason": missing["reason"], "message": missing["message"]},
    }


def lease_crud(coord, ns):
    now = datetime.now(timezone.utc)
    created = coord.create_namespaced_lease(
        ns,
        client.V1Lease(
            metadata=client.V1ObjectMeta(name="py-lease"),
            spec=client.V1LeaseSpec(
                holder_identity="py-a", lease_duration_seconds=15, acquire_time=now, renew_time=now, lease_transitions=0
            ),
        ),
    )
    read = coord.read_namespaced_lease("py-lease", ns)
    check(read.spec.renew_time == now, "renewTime round trip: %r != %r" % (read.spec.renew_time, now))
    read.spec.holder_identity = "py-b"
    read.spec.lease_transitions = 1
    replaced = coord.replace_namespaced_lease("py-lease", ns, read)
    stale = expect_status(lambda: coord.replace_namespaced_lease("py-lease", ns, read), 409)
    patched = coord.patch_namespaced_lease("py-lease", ns, {"spec": {"leaseDurationSeconds": 30}})
    listed = coord.list_namespaced_lease(ns)
    coord.delete_namespaced_lease("py-lease", ns)
    missing = expect_status(lambda: coord.read_namespaced_lease("py-lease", ns), 404)
    return {
        "apiVersion": created.api_version,
        "holder": replaced.spec.holder_identity,
        "transitions": replaced.spec.lease_transitions,
        "staleReplace": {"reason": stale["reason"], "message": stale["message"]},
        "patchedDuration": patched.spec.lease_duration_seconds,
        "listed": [item.metadata.name for item in listed.items],
        "missing": {"reason": missing["reason"], "message": missing["message"]},
    }


def configmap_watch(core, ns):
    # Watching from the list's resourceVersion sees every later change, however late the
    # stream starts.
    start = core.list_namespaced_config_map(ns).metadata.resource_version

    def writer():
        core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-watched")))
        core.delete_namespaced_config_map("py-watched", ns)

    thread = threading.Thread(target=writer)
    thread.start()
    events = []
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, ns, resource_version=start, timeout_seconds=10):
        events.append([event["type"], event["object"].metadata.name, type(event["object"]).__name__])
        if event["type"] == "DELETED":
            w.stop()
    thread.join()
    return events


def main():
    kubeconfig, ns = sys.argv[1], sys.argv[2]
    config.load_kube_config(config_file=kubeconfig)
    core = client.CoreV1Api()
    coord = client.CoordinationV1Api()
    result = {
        "configmap": configmap_crud(core, ns),
        "lease": lease_crud(coord, ns),
        "watch": configmap_watch(core, ns),
    }
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
