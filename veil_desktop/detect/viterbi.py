"""Constrained BIOES Viterbi decoding (PIPELINE.md "Decoding").

Allowed transitions: from ``O``, ``E-x``, ``S-x`` to ``O``, ``B-y``, ``S-y``; from ``B-x``, ``I-x`` to
``I-x``, ``E-x`` (same type). A path starts only in ``O``/``B``/``S`` and ends only in ``O``/``E``/``S``.
Forbidden moves score :data:`FORBIDDEN` (large and negative but finite, so the arithmetic stays finite).

Interchangeable kernels decode a batch of log-probabilities ``[batch, seq, labels]`` (float32) with
per-row lengths:

- a numba kernel (``nogil=True``, explicit signature, compiled once per process on first use or by
  :func:`warm_up`, cached on disk when numba has a writable cache location, compiled without a cache
  otherwise);
- the same numba kernel compiled ahead of time (``_viterbi_aot``, built by ``packaging/build_aot.py`` and
  shipped only in the offline bundle, which carries neither numba nor llvmlite); preferred when present;
- a pure-numpy kernel used when numba is missing or cannot compile.

All perform the same float32 additions in the same order and break ties towards the lower label id,
so they return *identical* tag sequences (tested on random logits). The transcendental part
(log-softmax, probabilities) is shared numpy code, so probabilities are identical too.

The engine asks for :func:`kernel_nowait`: numba once it is loaded, the numpy kernel until then (numba's
import and cache load start on a background thread at the first call), so a process's first detection
never waits ~0.7 s of CPU for numba.

Threading: the numba kernel releases the GIL; :func:`warm_up` may be called from any thread (a lock makes
compilation happen once).
"""
from __future__ import annotations

import os
import sys
import threading

import numpy as np

#: Score of a forbidden transition / start / end.
FORBIDDEN = np.float32(-1.0e4)

KIND_O, KIND_B, KIND_I, KIND_E, KIND_S = 0, 1, 2, 3, 4


def transitions(kinds: np.ndarray, types: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(trans [L, L], start [L], end [L])`` float32 constraint matrices for a BIOES label set.

    ``kinds[i]`` is 0..4 for O/B/I/E/S and ``types[i]`` the entity type index (-1 for O).
    """
    n = len(kinds)
    trans = np.full((n, n), FORBIDDEN, dtype=np.float32)
    for i in range(n):
        for j in range(n):
            ki, kj = kinds[i], kinds[j]
            if ki in (KIND_O, KIND_E, KIND_S):
                ok = kj in (KIND_O, KIND_B, KIND_S)
            else:  # B or I: continue the same entity
                ok = kj in (KIND_I, KIND_E) and types[i] == types[j]
            if ok:
                trans[i, j] = 0.0
    start = np.where(np.isin(kinds, (KIND_O, KIND_B, KIND_S)), 0.0, FORBIDDEN).astype(np.float32)
    end = np.where(np.isin(kinds, (KIND_O, KIND_E, KIND_S)), 0.0, FORBIDDEN).astype(np.float32)
    return trans, start, end


def log_softmax(logits: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """Row-wise log-softmax over the last axis in float32, after adding ``bias`` (per label) to the logits."""
    x = logits.astype(np.float32, copy=bias is None)
    if bias is not None:
        x = x + bias.astype(np.float32)
    x -= x.max(axis=-1, keepdims=True)
    x -= np.log(np.exp(x).sum(axis=-1, keepdims=True))
    return x


# ---------------------------------------------------------------------------------------------- kernels

def _viterbi_loops(emis, lengths, trans, start, end, out):  # pragma: no cover - compiled by numba
    """Plain-loop kernel; numba compiles this function (the numpy kernel below mirrors it exactly)."""
    n_rows, _, n_lab = emis.shape
    score = np.empty(n_lab, dtype=np.float32)
    new = np.empty(n_lab, dtype=np.float32)
    back = np.empty((emis.shape[1], n_lab), dtype=np.int32)
    for b in range(n_rows):
        n = lengths[b]
        if n <= 0:
            continue
        for j in range(n_lab):
            score[j] = start[j] + emis[b, 0, j]
        for t in range(1, n):
            for j in range(n_lab):
                best = score[0] + trans[0, j]
                arg = 0
                for i in range(1, n_lab):
                    v = score[i] + trans[i, j]
                    if v > best:
                        best = v
                        arg = i
                new[j] = best + emis[b, t, j]
                back[t, j] = arg
            for j in range(n_lab):
                score[j] = new[j]
        best = score[0] + end[0]
        arg = 0
        for j in range(1, n_lab):
            v = score[j] + end[j]
            if v > best:
                best = v
                arg = j
        out[b, n - 1] = arg
        for t in range(n - 1, 0, -1):
            arg = back[t, arg]
            out[b, t - 1] = arg


def viterbi_numpy(emis: np.ndarray, lengths: np.ndarray, trans: np.ndarray, start: np.ndarray,
                  end: np.ndarray, out: np.ndarray) -> None:
    """The numpy kernel: vectorised over batch rows and labels, same float32 operations as the loops."""
    n_rows, seq, n_lab = emis.shape
    if n_rows == 0 or seq == 0:
        return
    lengths = np.asarray(lengths)
    rows = np.arange(n_rows)
    back = np.zeros((n_rows, seq, n_lab), dtype=np.int32)
    score = start[None, :] + emis[:, 0, :]
    final = score.copy()
    cols = np.arange(n_lab)
    for t in range(1, int(lengths.max())):
        cand = score[:, :, None] + trans[None, :, :]  # [row, prev, next]
        arg = cand.argmax(axis=1)  # first maximum = lowest previous label, like the loop's strict '>'
        best = np.take_along_axis(cand, arg[:, None, :], axis=1)[:, 0, :]
        score = best + emis[:, t, :]
        back[:, t, :] = arg
        done = lengths == t + 1
        final[done] = score[done]
    last = (final + end[None, :]).argmax(axis=1)
    for b in range(n_rows):
        n = int(lengths[b])
        if n <= 0:
            continue
        arg = int(last[b])
        out[b, n - 1] = arg
        for t in range(n - 1, 0, -1):
            arg = int(back[b, t, arg])
            out[b, t - 1] = arg
    del rows, cols


_lock = threading.Lock()
_kernel = None
_backend: str | None = None


def _numba_cache_setup() -> None:
    """In a frozen app only numba's user-wide cache can work: point it at our user cache folder."""
    if getattr(sys, "frozen", False) and "NUMBA_CACHE_DIR" not in os.environ:
        try:
            from ..paths import user_cache_dir

            os.environ["NUMBA_CACHE_DIR"] = str(user_cache_dir() / "numba")
        except Exception:
            pass


def _load_aot():
    """The ahead-of-time compiled numba kernel, or None.

    ``packaging/build_aot.py`` compiles :func:`_viterbi_loops` with ``numba.pycc`` into the extension module
    ``veil_desktop.detect._viterbi_aot`` (the offline bundle ships it instead of numba + llvmlite, which it
    then needs neither of). Never present in a source checkout or a wheel, which use the JIT."""
    try:
        from . import _viterbi_aot  # type: ignore[attr-defined]

        return _viterbi_aot.viterbi
    except Exception:  # ImportError, or a module built for another CPU/Python: fall through to the JIT
        return None


def _compile():
    """Return ``(kernel, backend description)``; never raises."""
    if os.environ.get("VEIL_NO_NUMBA"):
        return viterbi_numpy, "numpy (VEIL_NO_NUMBA set)"
    aot = _load_aot()
    if aot is not None:
        return aot, "numba-aot (ahead-of-time compiled)"
    _numba_cache_setup()
    try:
        import numba
    except Exception as e:  # not installed or broken llvmlite
        return viterbi_numpy, f"numpy (numba unavailable: {type(e).__name__})"
    sig = numba.void(numba.float32[:, :, ::1], numba.int64[::1], numba.float32[:, ::1], numba.float32[::1],
                     numba.float32[::1], numba.int32[:, ::1])
    try:
        return numba.njit(sig, nogil=True, cache=True)(_viterbi_loops), "numba (cached)"
    except Exception:
        # numba raises when no cache location is writable (read-only install, frozen app without a
        # user cache): compile in memory instead.
        pass
    try:
        return numba.njit(sig, nogil=True, cache=False)(_viterbi_loops), "numba (not cached)"
    except Exception as e:
        return viterbi_numpy, f"numpy (numba failed to compile: {type(e).__name__})"


def kernel():
    """The Viterbi kernel for this process (compiled on first call; thread-safe)."""
    global _kernel, _backend
    if _kernel is None:
        with _lock:
            if _kernel is None:
                k, b = _compile()
                _backend = b
                _kernel = k
    return _kernel


def backend() -> str:
    """Which kernel is in use, e.g. ``"numba (cached)"`` or ``"numpy (...)"``."""
    kernel()
    return _backend or "?"


def kernel_name(k=None) -> str:
    """Short name of kernel ``k`` (default: this process's kernel): ``numba-aot``, ``numba-jit`` or ``numpy``."""
    k = kernel() if k is None else k
    if k is viterbi_numpy:
        return "numpy"
    return "numba-aot" if (_backend or "").startswith("numba-aot") and k is _kernel else "numba-jit"


_last_ran: str | None = None


def last_ran() -> str | None:
    """Short name of the kernel that decoded the most recent :func:`viterbi` call (None before any)."""
    return _last_ran


def warm_up() -> str:
    """Compile (or load from cache) and run the kernel once; call from a background thread at start-up."""
    k = kernel()
    kinds = np.array([0, 1, 2, 3, 4], dtype=np.int8)
    types = np.array([-1, 0, 0, 0, 0], dtype=np.int16)
    trans, start, end = transitions(kinds, types)
    emis = np.zeros((1, 3, 5), dtype=np.float32)
    out = np.zeros((1, 3), dtype=np.int32)
    k(emis, np.array([3], dtype=np.int64), trans, start, end, out)
    return backend()


_bg_lock = threading.Lock()
_bg_thread: threading.Thread | None = None
_aot_probed = False  # kernel_nowait looked for the AOT module once


def _join_background() -> None:
    # let a background compilation finish before the interpreter tears numba down under it
    t = _bg_thread
    if t is not None and t.is_alive():
        t.join(30)


def kernel_nowait():
    """The numba kernel if it is ready; otherwise start loading it on a background thread and return the
    numpy kernel (identical results), so the first detection of a process never waits for numba's
    import + cache load (~0.7 s of CPU). The ahead-of-time module (bundle) loads in under a millisecond:
    when it is there it is used at once, from the first detection on."""
    global _bg_thread, _aot_probed
    if _kernel is not None:
        return _kernel
    if not _aot_probed:
        _aot_probed = True
        if not os.environ.get("VEIL_NO_NUMBA") and _load_aot() is not None:
            return kernel()
    with _bg_lock:
        if _bg_thread is None:
            import atexit

            _bg_thread = threading.Thread(target=kernel, name="veil-viterbi-compile", daemon=True)
            _bg_thread.start()
            atexit.register(_join_background)
    return _kernel if _kernel is not None else viterbi_numpy


def viterbi(emis: np.ndarray, lengths: np.ndarray, trans: np.ndarray, start: np.ndarray, end: np.ndarray,
            *, use_numba: bool | None = None) -> np.ndarray:
    """Best allowed tag path per row: int32 ``[batch, seq]`` (positions past a row's length are 0).

    ``use_numba``: True = the numba kernel (compiling it now if needed), False = the numpy kernel,
    None (default) = numba when ready, else numpy while numba loads in the background."""
    emis = np.ascontiguousarray(emis, dtype=np.float32)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    out = np.zeros(emis.shape[:2], dtype=np.int32)
    global _last_ran
    k = kernel_nowait() if use_numba is None else (kernel() if use_numba else viterbi_numpy)
    _last_ran = kernel_name(k)
    k(emis, lengths, np.ascontiguousarray(trans, dtype=np.float32), np.ascontiguousarray(start, dtype=np.float32),
      np.ascontiguousarray(end, dtype=np.float32), out)
    return out
