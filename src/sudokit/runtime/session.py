"""A batch session: inputs in, one record per puzzle out, the way ``sudoku solve`` and ``sudoku check`` run.

:class:`Session` is the one runner every batch command shares; the command line only parses its
options into a :class:`Job` and a session and prints nothing itself. A session

* checks every input before any work (missing, unreadable, a directory) and the output file: never
  one of the inputs, never a file that already holds data unless ``force`` (replace) or ``resume``
  (continue) says so, and locked (an advisory ``flock``) so that two runs cannot write into it;
* loads the engines in a worker before the output file is touched, so a bad engine or option
  leaves nothing behind;
* with ``resume``, checks that the output holds records of this very run (format, puzzles, source and
  line, in order; streamed) and continues after them, or refuses and leaves the file untouched;
* streams the records, in input order, whole and flushed, through killable workers
  (:mod:`sudokit.engines.workers`); shows a progress bar on a terminal; writes the summary; and turns
  Ctrl-C or a kill (SIGTERM) into a clean stop that says how far it got and how to go on.

A session runs a :class:`Job`, which makes one record of each input record, or a :class:`Generated`
job, which reads no input: it makes items 1 to N from a seed (``sudoku generate``), and resumes
after the items whose records the output already holds.

It returns the exit status; what went wrong is said on ``err`` in one line.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol, TextIO, TypeGuard, cast

from sudokit.engines.workers import ReadAhead, Streamed, Task, WorkerPool
from sudokit.errors import SudokitError
from sudokit.io.reader import (
    Record,
    StreamLines,
    TableOptions,
    check_arguments,
    estimate_records,
    is_table,
    on_line,
    read_arguments,
)
from sudokit.model.shape import Shape
from sudokit.runtime.output import OutputError, RecordWriter, Rendered, ResumeError, resume_point
from sudokit.runtime.progress import Console, Progress, counted, same_terminal

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "RESUMABLE_FORMATS",
    "Generated",
    "Job",
    "OutputFile",
    "Session",
    "on_sigterm",
    "restore_sigterm",
    "writable",
]

EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports a process ended by SIGINT
EXIT_TERMINATED = 143  # a kill (SIGTERM)
EXIT_BROKEN_PIPE = 141  # the reader of standard output went away (SIGPIPE), as git and coreutils report it
#: The formats of a :class:`Job`'s records that ``--resume`` reads back (pretty and fpuzzles cannot be continued).
RESUMABLE_FORMATS = ("line", "json", "csv")


class Job(Protocol):
    """One kind of batch: what the workers run, and how their results become records."""

    kind: str  #: the key every json record of this job has: ``status`` (solve) or ``verdict`` (check)

    @property
    def fmt(self) -> str:
        """pretty, line, json or csv (a plain attribute will do, as for the read-only members below)."""
        ...

    @property
    def failures(self) -> str:
        """What the progress bar calls the records that went wrong ("failed", "not agreed")."""
        ...

    @property
    def header(self) -> str | None:
        """The csv header line, if the format has one."""
        ...

    def task(self) -> Task[Any, Any]:
        """What each worker runs."""
        ...

    def items(self, records: Iterator[Record]) -> Iterator[Any]:
        """The work items of the records, in order."""
        ...

    def outputs(self, results: Iterator[Any]) -> Iterator[Rendered]:
        """The records of the items' results, one per input record, in order."""
        ...

    def expected(self, record: Record) -> tuple[str, str | None, int | None]:
        """How this job's output record of ``record`` names it: (puzzle, source, line)."""
        ...

    def count(self, rendered: Rendered) -> None:
        """Count one record in the summary."""
        ...

    @property
    def done(self) -> int:
        """Records counted so far."""
        ...

    @property
    def failed(self) -> int:
        """Records counted so far that went wrong."""
        ...

    def summary(self) -> str:
        """The summary line(s)."""
        ...

    def exit_status(self) -> int:
        """The exit status for the records counted."""
        ...


class Generated(Protocol):
    """A batch without input records: items 1 to ``total``, each made from the run's seed (``sudoku generate``).

    The session runs it as it runs a :class:`Job` (output file, workers, progress, interrupts,
    summary); with ``resume`` the job itself checks the records the output holds
    (:meth:`resume_point`) and the session continues after the last item they are of.
    """

    generated: bool  #: True: what tells a session this job reads no inputs

    @property
    def fmt(self) -> str:
        """The records' format (a plain attribute will do, as for the read-only members below)."""
        ...

    @property
    def failures(self) -> str:
        """What the progress bar calls the items that went wrong ("not made")."""
        ...

    @property
    def header(self) -> str | None:
        """The csv header line, if the format has one."""
        ...

    @property
    def total(self) -> int:
        """How many items the run makes (N)."""
        ...

    def task(self) -> Task[Any, Any]:
        """What each worker runs."""
        ...

    def items(self, after: int) -> Iterator[Any]:
        """The work items after item ``after`` (0: all of them), in order."""
        ...

    def outputs(self, results: Iterator[Any]) -> Iterator[Rendered]:
        """The records of the items' results, one per item (its text empty for an item that makes none), in order."""
        ...

    def resume_point(self, handle: BinaryIO, name: str) -> tuple[int, int, int]:
        """Check that the output file ``name`` (``handle`` reads it) holds records of this very run: the last item
        they are of, how many records it holds and the offset where its complete records end (a torn last line
        is made again). Raises ``ResumeError`` naming the file and the line otherwise."""
        ...

    def resume_options(self) -> str | None:
        """The options besides ``--output FILE`` that continue this run (``--resume --seed 5``); None when its
        records cannot be continued."""
        ...

    def count(self, rendered: Rendered) -> None:
        """Count one item in the summary."""
        ...

    @property
    def done(self) -> int:
        """Items counted so far."""
        ...

    @property
    def failed(self) -> int:
        """Items counted so far that went wrong."""
        ...

    @property
    def written(self) -> int:
        """Records written so far (an item that went wrong writes none)."""
        ...

    def summary(self) -> str:
        """The summary line (which says where a resumed run began)."""
        ...

    def exit_status(self) -> int:
        """The exit status for the items counted."""
        ...


def _generated(job: Job | Generated) -> TypeGuard[Generated]:
    return getattr(job, "generated", False) is True


@dataclass(eq=False, repr=False)  # no generated methods it does not use: start-up
class OutputFile:
    """The ``--output`` file: opened, checked and locked before anything is written to it."""

    path: Path
    force: bool = False
    resume: bool = False
    fd: int = -1
    created: bool = False
    regular: bool = False
    temp: str | None = None  #: with ``force``: the new file, renamed over the old one by :meth:`commit`
    replaced: tuple[int, str] | None = None  #: with ``force``: the old file's descriptor (locked) and real path
    resumable: bool = True  #: whether the refusal of a file holding data names ``--resume``

    def open(self, inputs: Sequence[str]) -> None:
        """Open and lock the file; raise ``OutputError`` (nothing changed) if it may not be written.

        A file that is not a regular one (a pipe, a FIFO, a terminal, ``/dev/stdout``) is opened for
        writing only: a read end held here would keep its pipe from ever breaking when the reader goes
        (``-O /dev/stdout | head`` would hang). A regular file this run makes is made with ``O_EXCL``,
        so that it is removed again (when nothing was written) only by the run that made it. With
        ``force``, a file that holds data is replaced only when the run ends: the records go to a new
        file beside it, renamed over it then (as ``sponge`` and ``sed -i`` do), so a reader of the old
        file, even this run's own input through a pipe (``cat f | sudoku solve - -O f --force``),
        reads it whole.
        """
        name = os.fspath(self.path)
        try:
            before = os.stat(name)
        except FileNotFoundError:
            before = None
        except OSError as err:
            raise OutputError(f"cannot write {name}: {err.strerror or err}") from None
        if before is not None:
            if stat.S_ISDIR(before.st_mode):
                raise OutputError(f"cannot write {name}: it is a directory")
            for arg in inputs:
                if _same_file(before, arg):
                    shown = "standard input" if arg == "-" else arg
                    raise OutputError(f"--output {name} is the input {shown}: writing it would destroy the puzzles")
            self.regular = stat.S_ISREG(before.st_mode)
            self._refuse_data(before.st_size)
        if before is not None and not self.regular:
            try:  # written only: no read end, no O_CREAT, no cut
                self.fd = os.open(name, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
            except OSError as err:
                raise OutputError(f"cannot write {name}: {err.strerror or err}") from None
        else:
            self._open_regular(name, before is None)
        self.regular = stat.S_ISREG(os.fstat(self.fd).st_mode)
        self._lock(name)
        size = os.fstat(self.fd).st_size
        self._refuse_data(size)  # written meanwhile, before the lock
        if self.force and self.regular and size > 0:
            self._replace_later(name)

    def _open_regular(self, name: str, absent: bool) -> None:
        """Open a regular file (made with O_EXCL when ``absent``: ``created`` says whether this run made it)."""
        flags = os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        for _ in range(8):  # made and removed by others meanwhile: try again, a few times
            try:
                if absent:
                    self.fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | flags, 0o666)
                    self.created = True
                else:
                    self.fd = os.open(name, os.O_RDWR | flags)
                return
            except FileExistsError:
                absent = False  # another run made it just now: it is not ours to remove
            except FileNotFoundError:
                absent = True
            except OSError as err:
                if err.errno != errno.EACCES or self.resume or absent:
                    raise OutputError(f"cannot write {name}: {err.strerror}") from None
                try:  # a file we may write but not read: fine unless resuming
                    self.fd = os.open(name, os.O_WRONLY | flags)
                    return
                except OSError as again:
                    raise OutputError(f"cannot write {name}: {again.strerror}") from None
        raise OutputError(f"cannot write {name}: it keeps being made and removed by something else")

    def _replace_later(self, name: str) -> None:
        """With ``force``: write a new file beside ``name``, renamed over it by :meth:`commit`; the old one stays
        open (and locked) until then. Where no file can be made beside it, it is cut and written in place."""
        import tempfile

        real = os.path.realpath(name)
        folder, base = os.path.split(real)
        try:
            fd, temp = tempfile.mkstemp(prefix=f".{base}.", suffix=".part", dir=folder or ".")
        except OSError:
            return  # a folder we may not write in: the file itself is cut, as before
        mode = os.fstat(self.fd)
        with contextlib.suppress(OSError):
            os.fchmod(fd, stat.S_IMODE(mode.st_mode))
        self.replaced, self.temp, self.fd = (self.fd, real), temp, fd
        self._lock(temp)

    def commit(self) -> None:
        """Put the records in place: with ``force``, the new file replaces the old one (a no-op otherwise)."""
        if self.temp is None or self.replaced is None:
            return
        old, real = self.replaced
        try:
            os.replace(self.temp, real)
        except OSError as err:
            raise OutputError(f"cannot write {real}: {err.strerror or err}") from None
        finally:
            self.temp, self.replaced = None, None
            os.close(old)

    def _refuse_data(self, size: int) -> None:
        if self.regular and size > 0 and not (self.force or self.resume):
            name = os.fspath(self.path)
            self.close()
            go_on = ", --resume continues it" if self.resumable else ""
            raise OutputError(f"{name} already holds {size:,} bytes: --force replaces it{go_on}")

    def _lock(self, name: str) -> None:
        try:
            import fcntl
        except ImportError:  # not POSIX
            return
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.close()  # another run has it: never removed here, even when this run made it just now
            raise OutputError(f"{name} is being written by another run (it is locked): wait for it to end") from None
        except OSError:
            pass  # a file system or file kind without locks (a pipe, some network mounts): go on unlocked

    def reader(self) -> BinaryIO:
        """A handle that reads the file from the start (for ``--resume``)."""
        handle = os.fdopen(os.dup(self.fd), "rb")
        handle.seek(0)
        return handle

    def cut(self, size: int) -> None:
        """Make the file ``size`` bytes long (0 for ``--force``; after the last whole record for ``--resume``)."""
        if self.regular and os.fstat(self.fd).st_size != size:
            os.ftruncate(self.fd, size)

    def stream(self) -> TextIO:
        """A text stream writing to the file (closing it closes the file, which releases the lock)."""
        if is_table(self.path) == "parquet":  # csv records written as Parquet
            from sudokit.io.tables import ParquetStream

            parquet, self.fd = ParquetStream(self.fd, os.fspath(self.path)), -1
            return parquet  # type: ignore[return-value]
        # newline="\n": the same bytes on every system (Windows would write \r\n), as --resume reads them back.
        stream = open(self.fd, "w", encoding="utf-8", errors="surrogateescape", newline="\n", closefd=True)  # noqa: SIM115
        self.fd = -1
        return stream

    def close(self, *, remove: bool = False) -> None:
        """Close the file (and remove it, if this run created it and wrote nothing); a new file not committed goes."""
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None
        if self.replaced is not None:
            os.close(self.replaced[0])
            self.replaced = None
        if remove and self.created:
            try:
                if os.fstat(self.fd).st_size == 0:
                    os.unlink(self.path)
            except OSError:
                pass
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _same_file(output: os.stat_result, arg: str) -> bool:
    try:
        other = os.fstat(0) if arg == "-" else os.stat(arg)
    except (OSError, ValueError):
        return False
    return os.path.samestat(output, other)


@dataclass(eq=False, repr=False)  # no generated methods it does not use: start-up
class Session:
    """A batch over ``inputs`` (puzzles, files, ``-``; none for a :class:`Generated` job): records to ``output``
    (a path) or ``out``.

    ``batch`` says whether records get headers (pretty) and the run a summary; ``quiet`` drops the
    summary and the progress bar; ``prog`` begins every message. ``run`` returns the exit status.
    """

    inputs: Sequence[str]
    job: Job | Generated
    box: Shape | None = None
    jobs: int = 1
    output: Path | None = None
    force: bool = False
    resume: bool = False
    quiet: bool = False
    batch: bool = True
    out: TextIO | None = None
    err: TextIO | None = None
    prog: str = "sudoku"
    tables: TableOptions | None = None  #: how *.csv and *.parquet inputs are read (--column, --expect)
    line: int | None = (
        None  #: ``--line N``: of each input only its puzzle on line N (:func:`sudokit.io.reader.on_line`)
    )
    pool: Callable[[Task[Any, Any], int], Any] | None = None  #: makes the pool (task, jobs); None: a WorkerPool
    console: Console = field(init=False)

    def __post_init__(self) -> None:
        self.console = Console(self.err)

    def fail(self, message: str) -> int:
        """Say ``message`` as an error; the exit status 2."""
        self.console.say(f"{self.prog}: error: {message}")
        return 2

    def run(self) -> int:
        """Run the batch; the exit status (the job's, 2 for bad input or usage, 130/143 when stopped)."""
        made = self.job if _generated(self.job) else None  # a generated stream: no input records
        target = None
        if self.output is not None:
            continuable = self.job.fmt in RESUMABLE_FORMATS if made is None else made.resume_options() is not None
            target = OutputFile(self.output, self.force, self.resume, resumable=continuable)
        stream: TextIO | None = None
        skipped = after = 0  # records the output holds already; with a generated stream, the last item they are of
        previous = on_sigterm()
        try:
            check_arguments(self.inputs)  # a missing or unreadable file fails before any work
            if target is None and self.out is None:
                return self.fail("standard output is closed: nothing can be written (use --output FILE)")
            if target is not None:
                target.open(self.inputs)
            records: Iterator[Any] = iter(())
            lines: StreamLines | None = None
            blocks, many, keep = False, None, 0  # many: the type of a block's records (only blocks give them)
            if made is not None:
                if target is not None and self.resume:
                    after, skipped, keep = self._resume_generated(target, made)
            else:
                job = cast("Job", self.job)  # not generated: a job of input records
                # standard input from a pipe or a person: each record answered before the next line comes
                lines = StreamLines.of_stdin() if "-" in self.inputs else None
                # Runs of plain puzzles as blocks of text (fastpath). Only regular files are cut into blocks: a
                # lone puzzle on the command line never imports that machinery (start-up).
                files = any(arg != "-" and os.path.isfile(arg) for arg in self.inputs)
                blocks = files and self.line is None and getattr(job, "blocks", False)
                if blocks:
                    from sudokit.runtime.fastpath import Many, Resumable, expand_blocks, read_items

                    many = Many

                    records = read_items(self.inputs, box=self.box, stdin=lines, tables=self.tables)
                else:
                    records = read_arguments(self.inputs, lines, box=self.box, tables=self.tables)
                    if self.line is not None:
                        records = on_line(records, self.line)
                if target is not None and self.resume:
                    expected = job.expected

                    def key(record: Record) -> tuple[tuple[str, str | None, int | None], Record]:
                        return expected(record), record

                    if blocks:
                        resumable = Resumable(records, key)
                        skipped, keep = self._check_resume(target, resumable.keys())
                        records = resumable.rest()
                    else:
                        plain = cast("Iterator[Record]", records)  # records, never blocks, without blocks
                        skipped, keep = self._check_resume(target, (key(r) for r in plain))
            with (self.pool or WorkerPool)(self.job.task(), self.jobs) as pool:
                pool.start()  # a bad engine or option fails here, before the output is touched
                if made is not None:
                    items = made.items(after)
                else:
                    if blocks and not (getattr(pool, "info", None) or {}).get("many"):
                        records = expand_blocks(records)  # the engine solves one puzzle at a time: records
                    items = job.items(records)
                    if blocks and all(arg != "-" and os.path.isfile(arg) for arg in self.inputs):
                        items = ReadAhead(items)  # regular files: the next chunk is read while the workers solve
                    elif lines is not None:
                        items = Streamed(items, lines.ready, lines.fileno())
                stream = self._output(target, keep if self.resume else 0)
                self._stream(pool, items, stream, target, skipped, many, after=after)
            if target is not None:
                _close(stream, os.fspath(target.path))  # a full disk may show only now
                target.commit()
        except KeyboardInterrupt as err:  # Ctrl-C, or a kill (SIGTERM): say how far it got, and how to go on
            self.console.close()
            options = made.resume_options() if made is not None else None  # None: the records cannot be continued
            if made is None and self.job.fmt in RESUMABLE_FORMATS:
                options = "--resume"
            go_on = ""
            if target is not None and stream is not None and options:
                go_on = f" (continue with {options} --output {target.path})"
            done = skipped + (self.job.done if made is None else made.written)  # the records the output holds
            if writable(self.err):  # a pipe nobody reads any more would block the message forever
                self.console.say(
                    f"{self.prog}: interrupted after {counted(done, 'puzzle')}; every record written is complete{go_on}"
                )
                if made is None and self.job.done and not self.quiet:  # a generated run stops at that line
                    self.console.say(self.job.summary())
            return EXIT_TERMINATED if isinstance(err, _Terminated) else EXIT_INTERRUPTED
        except BrokenPipeError:
            return EXIT_BROKEN_PIPE  # the reader went away (``| head``): nothing to say, no one to say it to
        except OSError as err:  # reading an input failed midway (writing fails as an OutputError)
            where = f" {err.filename}" if err.filename else " the input"
            if made is not None and not err.filename:  # no input to read: the system refused something else
                return self.fail(f"{err.strerror or err}")
            return self.fail(f"cannot read{where}: {err.strerror or err}")
        except SudokitError as err:  # bad input or usage, an engine that cannot load, an input failing midway
            return self.fail(_message(err))
        finally:
            restore_sigterm(previous)
            self.console.close()
            if target is not None:
                if stream is None:
                    target.close(remove=True)  # nothing written: a file this run created goes again
                else:
                    _close_quietly(stream)
                    with contextlib.suppress(OutputError):  # stopped: the records written replace the old file
                        target.commit()
                    target.close()
        if made is None and not self.job.done and not skipped:
            return self.fail("no puzzles in the input")
        if self.batch and not self.quiet:  # a generated stream's summary says itself where a resumed run began
            resumed = f" (resumed after {skipped} already written)" if self.resume and made is None else ""
            self.console.say(self.job.summary() + resumed)
        return self.job.exit_status()

    def _output(self, target: OutputFile | None, keep: int) -> TextIO:
        """The stream the records go to: the output file cut to ``keep`` bytes, or standard output."""
        if target is not None:
            target.cut(keep)
            return target.stream()
        assert self.out is not None  # seen at the start: no output fails at once
        return self.out

    def _resume_generated(self, target: OutputFile, job: Generated) -> tuple[int, int, int]:
        """Where a generated stream goes on: the last item the output holds, its records, where they end."""
        name = os.fspath(target.path)
        if not target.regular:  # a pipe or a device holds no records to continue (and is opened write-only)
            raise ResumeError(f"cannot resume {name}: not a regular file")
        try:
            with target.reader() as handle:
                return job.resume_point(handle, name)
        except OSError as err:
            raise ResumeError(f"cannot resume {name}: {err.strerror or err}") from None

    def _check_resume(
        self, target: OutputFile, expected: Iterator[tuple[tuple[str, str | None, int | None], Record]]
    ) -> tuple[int, int]:
        """How many records the output already holds (checked against the input's keys and the job's records),
        and where they end."""
        name = os.fspath(target.path)
        job = cast("Job", self.job)  # a job of input records: a generated one checks its records itself
        fits = getattr(job, "fits", None)  # the records this very job writes: their kind, fields, engine
        try:
            with target.reader() as handle:
                return resume_point(handle, name, job.fmt, expected, header=job.header, kind=job.kind, fits=fits)
        except OSError as err:
            raise ResumeError(f"cannot resume {name}: {err.strerror or err}") from None

    def _stream(
        self,
        pool: WorkerPool[Any, Any],
        items: Iterator[Any],
        stream: TextIO,
        target: OutputFile | None,
        skipped: int,
        many: type[Any] | None = None,
        *,
        after: int = 0,
    ) -> None:
        """Write the record of every item, in order, with messages and the progress bar.

        ``many`` is the type of a block's records (:class:`sudokit.runtime.fastpath.Many`) when blocks were read;
        ``after``, with a generated stream, the item it resumes after.
        """
        job, console = self.job, self.console
        writer = RecordWriter(stream, "standard output" if target is None else os.fspath(target.path))
        if not self.quiet and self.batch and self.err is not None and _is_tty(self.err):
            total = None
            if _generated(job):
                total = max(0, job.total - after) or None
            elif self.line is not None:
                total = max(0, len(self.inputs) - skipped) or None  # one record an input
            elif "-" not in self.inputs:
                total = estimate_records(arg for arg in self.inputs if os.path.exists(arg))
                total = None if total is None else max(0, total - skipped) or None
            console.progress = Progress(self.err, total)
            console.shared = same_terminal(stream, self.err)
        if job.header is not None and skipped == 0 and (target is None or _empty(stream)):
            writer.write(job.header)
        first = True
        rendered: Any  # a Rendered, a block's records (many) or a library object
        if target is not None and getattr(pool, "isolate", False) and _main_thread():
            # Records to a file, engines in other processes: a record is counted and written under a hold of
            # Ctrl-C and SIGTERM, so that "interrupted after N puzzles" is what the file holds.
            held = _Held()
            held.install()
            try:
                for rendered in job.outputs(pool.map(items)):
                    first = self._write_held(rendered, writer, held, many, first=first)
                    console.update(job.done, job.failed, failures=job.failures)
            finally:
                held.remove()
            return
        for rendered in job.outputs(pool.map(items)):
            if type(rendered) is many:  # a block's records: runs of text (counted together) and single records
                job.count_many(rendered.answers)  # type: ignore[union-attr]  # a job that reads blocks has it
                for part in rendered.parts:
                    if type(part) is str:
                        console.before_record()
                        writer.write(part)
                    elif type(part) is bytes:  # records made at once from a block's bytes
                        console.before_record()
                        writer.write_lines(part)
                    else:
                        self._write(part, writer, first=False)
                first = False
            else:
                first = self._write(rendered, writer, first=first)
            console.update(job.done, job.failed, failures=job.failures)

    def _write_held(
        self, rendered: Any, writer: RecordWriter, held: _Held, many: type[Any] | None, *, first: bool
    ) -> bool:
        """Write an item's record, or a block's records, to a file: messages first, then the records counted and
        written with Ctrl-C and SIGTERM held (a signal between the count and the write made the count one more
        than the file held); whether the next record is still the first."""
        job = self.job
        block = type(rendered) is many
        parts = rendered.parts if block else [rendered]
        first = first and not block  # as _stream writes a block's single records
        for part in parts:
            if type(part) is not str and type(part) is not bytes:
                self._say(part)
        with held:
            if block:
                job.count_many(rendered.answers)  # type: ignore[union-attr]  # a job that reads blocks has it
            for part in parts:
                if type(part) is str:
                    writer.write(part)
                elif type(part) is bytes:  # records made at once from a block's bytes
                    writer.write_lines(part)
                else:
                    job.count(part)
                    if part.text:
                        writer.write(part.text if first or job.fmt != "pretty" else "\n" + part.text)
                        first = False
        return first

    def _write(self, rendered: Rendered, writer: RecordWriter, *, first: bool) -> bool:
        """Count one record, say its messages, write its text; whether the next record is still the first."""
        console = self.console
        self.job.count(rendered)
        self._say(rendered)
        if rendered.text:
            console.before_record()
            writer.write(rendered.text if first or self.job.fmt != "pretty" else "\n" + rendered.text)
            return False
        return first

    def _say(self, rendered: Rendered) -> None:
        """A record's messages and note, on standard error."""
        for message in rendered.messages:
            self.console.say(f"{self.prog}: {message}")
        if rendered.note:
            self.console.say(rendered.note)


def _message(err: SudokitError) -> str:
    """A sudokit error on one line."""
    return " ".join(str(err).split())


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def _empty(stream: TextIO) -> bool:
    try:
        return os.fstat(stream.fileno()).st_size == 0
    except (OSError, ValueError, AttributeError):
        return True


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


class _Held:
    """Ctrl-C and SIGTERM held back within ``with held:``, once :meth:`install` wrapped their handlers (until
    :meth:`remove`): a signal that comes while held runs its handler when the block ends (a second one at once,
    so that a write that blocks can still be stopped); outside a block, at once."""

    def __init__(self) -> None:
        self.holding = False
        self.pending: int | None = None
        self.previous: dict[int, Callable[[int, Any], Any]] = {}

    def install(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            handler = signal.getsignal(signum)
            if callable(handler):  # an ignored signal stays ignored
                self.previous[signum] = handler
                signal.signal(signum, self._on_signal)

    def remove(self) -> None:
        """Put back each handler not replaced since (SIGTERM's, run once, ignores a second SIGTERM)."""
        for signum, handler in self.previous.items():
            if signal.getsignal(signum) == self._on_signal:
                signal.signal(signum, handler)

    def __enter__(self) -> None:
        self.holding = True

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self.holding = False
        if self.pending is not None and kind is None:
            signum, self.pending = self.pending, None
            self.previous[signum](signum, None)

    def _on_signal(self, signum: int, frame: Any) -> None:
        if self.holding and self.pending is None:
            self.pending = signum  # its handler runs once the record is written
            return
        self.previous[signum](signum, frame)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, turned into the same orderly stop as Ctrl-C."""


def _terminate(signum: int, frame: object) -> None:
    # Once: a second kill while the batch stops (its message, its workers ended) would break off that stop
    # with a traceback. What is left of the stop is bounded: a second kill is not needed to end it.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Terminated


def writable(stream: TextIO | None, seconds: float = 1.0) -> bool:
    """Whether a line can be written to ``stream`` within ``seconds`` (a full pipe that nobody reads: no)."""
    if stream is None:
        return False
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return True  # not a real file (a test's capture): writing it never blocks
    import select

    try:
        return bool(select.select([], [fd], [], seconds)[1])
    except (OSError, ValueError):
        return True


def on_sigterm() -> Any:
    """Make SIGTERM stop the batch as Ctrl-C does (main thread only); the handler it replaced."""
    try:
        return signal.signal(signal.SIGTERM, _terminate)
    except (ValueError, TypeError):  # not the main thread
        return None


def restore_sigterm(previous: Any) -> None:
    """Put back the SIGTERM handler :func:`on_sigterm` replaced."""
    if previous is not None:
        with contextlib.suppress(ValueError, TypeError):
            signal.signal(signal.SIGTERM, previous)


def _close(stream: TextIO, name: str) -> None:
    try:
        stream.close()
    except OSError as err:
        raise OutputError(f"cannot write {name}: {err.strerror or err}") from None


def _close_quietly(stream: TextIO) -> None:
    with contextlib.suppress(OSError, ValueError):
        stream.close()
