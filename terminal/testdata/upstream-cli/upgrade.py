import json, sys, os
src = "/work/shared/reference/upstream-cli-snapshots"
for name in ["bash-terminal-card", "multi-turn-conversation", "parallel-file-reads"]:
    out = []
    for raw in open(os.path.join(src, name, "session.jsonl")):
        raw = raw.rstrip("\n")
        if not raw:
            continue
        e = json.loads(raw)
        t = e.get("type")
        d = e.get("data")
        if t == "turn/start" and isinstance(d, dict):
            d.pop("trigger", None)
        elif t == "user/message":
            e["data"] = {"id": "user-%d" % e["seq"], "role": "user", "content": d["content"], "source": d["source"]}
        elif t == "assistant/message":
            prov = d.get("provenance", {})
            msg = {"id": "assistant-%d" % e["seq"], "role": "assistant", "content": d["content"],
                   "source": {"kind": "model", "provider": prov.get("provider", ""), "model": prov.get("model", "")}}
            nd = {"turn": d["turn"], "step": d["step"], "message": msg}
            if "usage" in d:
                nd["usage"] = d["usage"]
            e["data"] = nd
        elif t == "tool/result":
            cid = d["callId"]
            block = {"type": "tool-result", "toolCallId": cid, "content": d["content"], "isError": d.get("isError", False)}
            nd = {"turn": d["turn"], "step": d["step"], "message": {"id": "result-%d" % e["seq"], "role": "user",
                  "content": [block], "source": {"kind": "tool", "callId": cid}}}
            if "meta" in d:
                nd["meta"] = d["meta"]
            e["data"] = nd
        out.append(json.dumps(e, ensure_ascii=False, separators=(",", ":")))
    os.makedirs(name, exist_ok=True)
    open(os.path.join(name, "session.jsonl"), "w").write("\n".join(out) + "\n")
    print(name, len(out))
