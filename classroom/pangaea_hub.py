"""The classroom hub's own login and spawner (loaded by ``jupyterhub_config.py``; needs the
``hub`` extra: JupyterHub and jupyterhub-nativeauthenticator).

- ``ClassroomAuthenticator``: the login of NativeAuthenticator (bcrypt password hashes in the
  hub's database, a name locked for a while after a few wrong passwords, /hub/change-password),
  with accounts made from the teacher's roster: every new name gets a generated password,
  written to a hand-out file only the hub's user can read.  Nobody can sign up; a name not on
  the roster never gets in; each wrong try waits a little longer before it is answered.
- ``StudentSpawner``: every person's server runs as their own unprivileged system user
  (``pl-<name>``, made on first start), in a home folder only they can enter, inside its own
  memory and CPU limits (Linux control groups), from the students' Python environment.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import bcrypt
from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid
from nativeauthenticator import NativeAuthenticator
from nativeauthenticator.orm import UserInfo
from tornado import web
from traitlets import Float, Integer, Unicode

from roster import RosterError, new_password, read_roster, system_user

#: seconds a wrong password waits before its answer, growing with each wrong try in a row
SLOW_STEP, SLOW_MOST = 1.0, 5.0


class ClassroomAuthenticator(NativeAuthenticator):
    """A login per person on the roster, no sign-up, wrong passwords slowed then locked."""

    roster_file = Unicode(config=True, help="The teacher's roster (one name per line)")
    handout_file = Unicode(config=True, help="Where new accounts' passwords are written")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.roster = read_roster(self.roster_file)
        self.provision()

    def provision(self) -> list[str]:
        """Make an account for every roster name that has none; return the new names."""
        fresh = []
        for name in self.roster.everyone:
            if UserInfo.find(self.db, name) is None:
                password = new_password()
                hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt())
                self.db.add(UserInfo(username=name, password=hashed, is_authorized=True))
                fresh.append((name, password))
        if fresh:
            self.db.commit()
            self._hand_out(fresh)
        return [name for name, _ in fresh]

    def _hand_out(self, fresh: list[tuple[str, str]]) -> None:
        path = Path(self.handout_file)
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(handle, "a", encoding="utf-8") as out:
            for name, password in fresh:
                role = "teacher" if name in self.roster.teachers else "student"
                out.write(f"{name:<20} {password:<28} {role}\n")
        self.log.info("%d new account(s): their first passwords are in %s (readable only by "
                      "the hub's user); hand them out and ask everyone to change theirs at "
                      "/hub/change-password", len(fresh), path)

    def get_handlers(self, app):
        """JupyterHub's own login page (which calls ``authenticate`` below) and
        NativeAuthenticator's pages for changing a password; no sign-up, no approval pages
        (the roster decides who has an account)."""
        return [(path, handler) for path, handler in super().get_handlers(app)
                if path.startswith("/change-password")]

    async def authenticate(self, handler, data):
        name = self.normalize_username(str((data or {}).get("username", ""))[:64])
        password = str((data or {}).get("password", ""))[:256]
        earlier = self.login_attempts.get(name, {}).get("count", 0)
        if earlier:
            await asyncio.sleep(min(SLOW_MOST, SLOW_STEP * earlier))
        if name not in self.roster.everyone:
            await asyncio.sleep(SLOW_STEP)
            return None
        if self.allowed_failed_logins and self.is_blocked(name):
            self.log.warning("Login refused for %s: locked after %d wrong passwords", name,
                             self.login_attempts[name]["count"])
            # the login page shows this sentence instead of "Invalid username or password"
            raise web.HTTPError(429, "Too many wrong passwords in a row for this name: try "
                                     "again in a few minutes, or ask your teacher.")
        user = self.get_user(name)
        if user is None or not user.is_authorized:
            return None
        # bcrypt takes a quarter of a second on purpose: off the hub's event loop
        right = await asyncio.get_running_loop().run_in_executor(
            None, bcrypt.checkpw, password.encode(), user.password)
        if right:
            self.successful_login(name)
            return name
        self.add_login_attempt(name)
        return None


class StudentSpawner(LocalProcessSpawner):
    """Each person's server as their own system user, home and control groups."""

    homes = Unicode(config=True, help="The folder holding everyone's home folder")
    skeleton = Unicode("", config=True, help="A folder copied into each home folder when it "
                       "is made (what every new user would otherwise make at a first start)")
    runtime_dirs = Unicode("", config=True, help="The folder holding each person's Jupyter "
                           "runtime folder (their kernels' sockets), with a short path")
    teacher_files = Unicode("", config=True, help="A folder copied into teachers' homes")
    memory_bytes = Integer(0, config=True, help="Memory limit per person (0: none)")
    cpus = Float(0.0, config=True, help="CPU limit per person, in cores (0: none)")
    cgroup_root = Unicode("/sys/fs/cgroup", config=True)

    @property
    def system_name(self) -> str:
        return system_user(self.user.name)

    @property
    def home(self) -> Path:
        return Path(self.homes) / self.user.name

    def ensure_system_user(self) -> None:
        """The person's system user and private home folder, made on first start."""
        try:
            pwd.getpwnam(self.system_name)
        except KeyError:
            subprocess.run(["useradd", "--system", "--user-group", "--no-create-home",
                            "--home-dir", str(self.home), "--shell", "/bin/bash",
                            self.system_name], check=True, capture_output=True)
            self.log.info("Made the system user %s for %s", self.system_name, self.user.name)
        account = pwd.getpwnam(self.system_name)
        if account.pw_dir != str(self.home):
            # the user was made for another home folder (the hub's ROOT moved, or another hub
            # on this machine made it): the server must run in this hub's home, not write into
            # the old one
            subprocess.run(["usermod", "--home", str(self.home), self.system_name],
                           check=True, capture_output=True)
            self.log.info("The system user %s now has the home %s", self.system_name, self.home)
            account = pwd.getpwnam(self.system_name)
        new = not self.home.exists()
        self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chown(self.home, account.pw_uid, account.pw_gid)
        self.home.chmod(0o700)
        if new and self.skeleton:
            try:
                self._copy_skeleton(account)
            except OSError as error:         # only saves work at a first start
                self.log.warning("The new home of %s: no copy of %s (%s)", self.user.name,
                                 self.skeleton, error)
        if self.user.admin and self.teacher_files:
            self._copy_teacher_files(account)
        if self.runtime_dirs:
            runtime = self.runtime
            runtime.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            runtime.mkdir(mode=0o700, exist_ok=True)
            os.chown(runtime, account.pw_uid, account.pw_gid)
            runtime.chmod(0o700)

    @property
    def runtime(self) -> Path:
        """Where the person's server and kernels keep their connection files and sockets:
        only they can enter it (a socket's path must stay under 108 characters)."""
        return Path(self.runtime_dirs) / self.user.name

    def _copy_skeleton(self, account: pwd.struct_passwd) -> None:
        """Into a home just made, so with nothing of the person's in it (no link of theirs to
        follow): the skeleton's folders and files, theirs."""
        source = Path(self.skeleton)
        for path in sorted(source.rglob("*")):
            if path.is_symlink() or not (path.is_dir() or path.is_file()):
                continue
            target = self.home / path.relative_to(source)
            if path.is_dir():
                target.mkdir(mode=0o700, exist_ok=True)
            else:
                shutil.copyfile(path, target)
            os.chown(target, account.pw_uid, account.pw_gid)

    def _copy_teacher_files(self, account: pwd.struct_passwd) -> None:
        for source in Path(self.teacher_files).glob("*.ipynb"):
            target = self.home / source.name
            if not target.exists():
                shutil.copy(source, target)
                os.chown(target, account.pw_uid, account.pw_gid)

    # ----- memory and CPU (Linux control groups, version 1 or 2) ------------------------------

    def _groups(self) -> dict[Path, dict[str, str]]:
        """Each control group to join, with the limits to write into it."""
        root, leaf = Path(self.cgroup_root), Path("pangaea-lab") / self.user.name
        period = 100_000
        quota = int(self.cpus * period) if self.cpus else 0
        if (root / "cgroup.controllers").exists():           # version 2: one tree
            limits = {}
            if self.memory_bytes:
                limits["memory.max"] = str(self.memory_bytes)
            if quota:
                limits["cpu.max"] = f"{quota} {period}"
            return {root / leaf: limits} if limits else {}
        groups = {}
        if self.memory_bytes:
            groups[root / "memory" / leaf] = {"memory.limit_in_bytes": str(self.memory_bytes)}
        if quota:
            groups[root / "cpu" / leaf] = {"cpu.cfs_period_us": str(period),
                                           "cpu.cfs_quota_us": str(quota)}
        return groups

    def prepare_limits(self) -> list[Path]:
        """Make the person's control groups with their limits; the folders to join."""
        groups = self._groups()
        if (Path(self.cgroup_root) / "cgroup.controllers").exists() and groups:
            parent = Path(self.cgroup_root) / "pangaea-lab"
            parent.mkdir(exist_ok=True)
            for level in (Path(self.cgroup_root), parent):
                (level / "cgroup.subtree_control").write_text("+memory +cpu")
        for folder, limits in groups.items():
            folder.mkdir(parents=True, exist_ok=True)
            for name, value in limits.items():
                (folder / name).write_text(value)
        return list(groups)

    def make_preexec_fn(self, name):
        # JupyterHub's own switch to the person's system user (it also enters their home)
        return set_user_setuid(self.system_name)

    def join_limits(self, pid: int, groups: list[Path]) -> None:
        """Put the server's process into the person's control groups (from the hub, right
        after it starts: its kernels, started later, are born inside them)."""
        for folder in groups:
            (folder / "cgroup.procs").write_text(str(pid))

    def user_env(self, env):
        account = pwd.getpwnam(self.system_name)
        env.update(USER=self.system_name, HOME=account.pw_dir, SHELL=account.pw_shell)
        if self.runtime_dirs:
            env["JUPYTER_RUNTIME_DIR"] = str(self.runtime)
        return env

    async def start(self):
        self.ensure_system_user()
        try:
            groups = self.prepare_limits()
        except OSError as error:
            groups = []
            self.log.warning("No memory or CPU limit for %s: control groups cannot be "
                             "written here (%s)", self.user.name, error)
        address = await super().start()
        try:
            self.join_limits(self.pid, groups)
        except OSError as error:
            self.log.warning("No memory or CPU limit for %s: %s", self.user.name, error)
        return address

    async def move_certs(self, paths):
        return paths


__all__ = ["ClassroomAuthenticator", "StudentSpawner", "RosterError"]
