"""The campaign directory and its manifest, campaign.json (the contract:
/work/notes/campaign-design.md, "The campaign directory").

campaign.json is rewritten after every change, as a temporary file in DIR renamed over the
manifest, so a killed runner leaves either the old or the new manifest, never half of one.
Paths in it are relative to DIR.

A campaign is created in a DIR that does not exist or is empty; a DIR holding anything is
refused unless the run resumes it (--resume), and a resume is refused when the spec given
is not the one DIR was made from (its sha256 differs). A step found "running" on resume was
interrupted: its files are removed and it runs again.
"""

import datetime
import hashlib
import json
import os
import shutil
import socket

FORMAT = "suite-campaign-1"
MANIFEST = "campaign.json"


class StoreError(Exception):
    """One line saying why the campaign directory cannot be used."""


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def now():
    """A UTC time stamp, e.g. 2026-12-01T22:40:00.123Z."""
    t = datetime.datetime.now(datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def check_new(out_dir):
    """StoreError unless out_dir can hold a new campaign (absent or an empty directory)."""
    if os.path.lexists(out_dir):
        if not os.path.isdir(out_dir):
            raise StoreError(f"{out_dir}: exists and is not a directory")
        if os.listdir(out_dir):
            raise StoreError(f"{out_dir}: not empty; use --resume to continue the campaign in it")


class Store:
    """The manifest of the campaign in out_dir, kept on disk after every change."""

    def __init__(self, out_dir, manifest):
        self.dir = os.path.abspath(out_dir)
        self.manifest = manifest

    @property
    def steps(self):
        return self.manifest["steps"]

    @classmethod
    def create(cls, out_dir, spec_path, steps, name, build, repo, backend):
        check_new(out_dir)
        os.makedirs(out_dir, exist_ok=True)
        for sub in ("work", "probes", "runs"):
            os.makedirs(os.path.join(out_dir, sub), exist_ok=True)
        shutil.copyfile(spec_path, os.path.join(out_dir, "spec.toml"))
        manifest = {"format": FORMAT, "name": name, "spec": "spec.toml",
                    "spec_sha256": sha256_of(spec_path), "created": now(),
                    "host": socket.gethostname(), "cpu": cpu_name(),
                    "build": os.path.abspath(build), "repo": os.path.abspath(repo),
                    "backend": backend, "steps": steps}
        store = cls(out_dir, manifest)
        store.save()
        return store

    @classmethod
    def open(cls, out_dir):
        """The campaign in out_dir; StoreError when there is none or it cannot be read."""
        path = os.path.join(out_dir, MANIFEST)
        try:
            with open(path) as f:
                manifest = json.load(f)
        except FileNotFoundError:
            raise StoreError(f"{out_dir}: no campaign here ({MANIFEST} missing)") from None
        except (OSError, ValueError) as e:
            raise StoreError(f"{path}: not a readable campaign manifest ({e})") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT \
                or not isinstance(manifest.get("steps"), list):
            raise StoreError(f'{path}: not a campaign manifest (format "{FORMAT}" expected)')
        return cls(out_dir, manifest)

    @classmethod
    def resume(cls, out_dir, spec_path):
        """The campaign in out_dir, made from the spec at spec_path, its interrupted steps
        made pending again; StoreError when the spec differs."""
        store = cls.open(out_dir)
        if store.manifest.get("spec_sha256") != sha256_of(spec_path):
            raise StoreError(f"{out_dir}: made from another spec than {spec_path} "
                             f"(sha256 differs); give the spec it was made from, or a new --out")
        for step in store.steps:
            if step["status"] == "running":
                store.clear_step_files(step)
                store.reset(step)
        store.save()
        return store

    def path(self, relative):
        return os.path.join(self.dir, relative)

    def save(self):
        """Writes campaign.json atomically (temporary file, fsync, rename)."""
        target = os.path.join(self.dir, MANIFEST)
        temporary = f"{target}.tmp.{os.getpid()}"
        with open(temporary, "w") as f:
            json.dump(self.manifest, f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)

    def update(self, step, **fields):
        """Sets fields of step, saves the manifest and, for a run, its status.json."""
        step.update(fields)
        if step["kind"] == "run":
            run_dir = self.path(step["dir"])
            os.makedirs(run_dir, exist_ok=True)
            temporary = os.path.join(run_dir, f"status.json.tmp.{os.getpid()}")
            with open(temporary, "w") as f:
                json.dump(step, f, indent=1)
                f.write("\n")
            os.replace(temporary, os.path.join(run_dir, "status.json"))
        self.save()

    @staticmethod
    def reset(step):
        step.update(status="pending", exit=None, error=None, elapsed=None, started=None,
                    finished=None, job_id=None, load=None)

    def clear_step_files(self, step):
        """Removes what an earlier attempt of step wrote: a run's whole directory, a probe's
        machine file and outputs, a prepare's outputs."""
        if step["kind"] == "run":
            shutil.rmtree(self.path(step["dir"]), ignore_errors=True)
            return
        for key in ("stdout", "stderr", "machine"):
            if step.get(key):
                try:
                    os.remove(self.path(step[key]))
                except FileNotFoundError:
                    pass

    def counts(self):
        """{status: number of steps}, every status present."""
        counts = {s: 0 for s in ("done", "failed", "pending", "running", "submitted")}
        for step in self.steps:
            counts[step["status"]] = counts.get(step["status"], 0) + 1
        return counts
