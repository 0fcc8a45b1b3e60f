"""Charts: matplotlib SVGs, deterministic (fixed hash salt, no date), one colour per series."""
import os


class Charts:
    """The report's charts: each drawn from a section's data, saved as charts/<name>.svg."""

    def __init__(self, out_dir, adapters, families):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        matplotlib.rcParams["svg.hashsalt"] = "soapbench"
        matplotlib.rcParams["svg.fonttype"] = "none"
        matplotlib.rcParams["font.size"] = 9
        self.plt = plt                # matplotlib.pyplot, imported here only (Agg)
        self.dir = out_dir            # the charts/ folder
        self.written = []             # file names saved, in order
        cmap = plt.get_cmap("tab20")
        self.colors = {a: cmap(i % 20) for i, a in enumerate(adapters)}  # series -> colour
        self.fam_colors = {f: plt.get_cmap("tab10")(i) for i, f in        # family -> colour
                           enumerate(families + ["binary"])}

    def color(self, key):
        if key in self.colors:
            return self.colors[key]
        if key in self.fam_colors:
            return self.fam_colors[key]
        self.colors[key] = self.plt.get_cmap("tab20b")(len(self.colors) % 20)
        return self.colors[key]

    def save(self, fig, name, title):
        os.makedirs(self.dir, exist_ok=True)
        path = os.path.join(self.dir, name)
        fig.savefig(path, format="svg", bbox_inches="tight", metadata={"Date": None})
        self.plt.close(fig)
        self.written.append(name)
        return f"![{title}](charts/{name})"

    def grouped(self, groups, ylabel, title, name, log=False, ref=None):
        """groups: [(label, [(series, value)])]; bars per series within each group."""
        plt = self.plt
        n_bars = sum(len(g[1]) for g in groups)
        fig, ax = plt.subplots(figsize=(max(6.0, 0.28 * n_bars + 1.2 * len(groups)), 4.2))
        x = 0.0
        ticks, labels, seen = [], [], set()
        for label, bars in groups:
            start = x
            for series, value in bars:
                if value is None:
                    x += 1
                    continue
                ax.bar(x, value, width=0.9, color=self.color(series),
                       label=series if series not in seen else None)
                seen.add(series)
                x += 1
            ticks.append((start + x - 1) / 2)
            labels.append(label)
            x += 1.2
        ax.set_xticks(ticks)
        ax.set_xticklabels(labels, rotation=0)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        if log:
            ax.set_yscale("log")
        if ref is not None:
            ax.axhline(ref, color="grey", linewidth=0.8, linestyle="--")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
        return fig, ax

    def _grid(self, n, height):
        """A figure of n small charts, two per row; the spare cell switched off."""
        cols = 2 if n > 1 else 1
        nrows = (n + cols - 1) // cols
        fig, axes = self.plt.subplots(nrows, cols, figsize=(11, height * nrows), squeeze=False)
        for k in range(n, nrows * cols):
            axes[k // cols][k % cols].axis("off")
        return fig, [axes[i // cols][i % cols] for i in range(n)]

    def level_bars(self, groups, levels, file):
        """Per family, MB/s of each adapter at each level (groups: family, adapters, mb_s)."""
        fig, axes = self._grid(len(groups), 3.0)
        level_colors = {"parse": "#4c72b0", "walk": "#dd8452", "decode": "#55a868"}
        for i, (ax, g) in enumerate(zip(axes, groups)):
            adapters = g["adapters"]
            for j, l in enumerate(levels):
                ax.bar([k + (j - 1) * 0.27 for k in range(len(adapters))], g["mb_s"][l],
                       width=0.27, color=level_colors[l], label=l)
            ax.set_xticks(range(len(adapters)))
            ax.set_xticklabels(adapters, rotation=40, ha="right", fontsize=7)
            ax.set_title(f"{g['family']}: {file}", fontsize=9)
            ax.set_ylabel("MB/s")
            ax.grid(axis="y", alpha=0.3)
            if i == 0:
                ax.legend(fontsize=7)
        fig.tight_layout()
        return fig

    def size_lines(self, families, lines):
        """Per family, MB/s against message bytes per adapter (lines: family -> [(adapter,
        [(bytes, MB/s)])])."""
        fig, axes = self._grid(len(families), 3.2)
        for ax, fam in zip(axes, families):
            for a, pts in lines[fam]:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3,
                        color=self.color(a), label=a)
            ax.set_xscale("log")
            ax.set_title(fam, fontsize=9)
            ax.set_xlabel("message bytes")
            ax.set_ylabel("MB/s")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=6, ncol=2)
        fig.tight_layout()
        return fig

    def memory_bars(self, file, families, adapters, cells):
        """Allocations and peak KiB per adapter and family (cells: (adapter, family) ->
        (allocations, peak bytes))."""
        from sbtools.fmt import short
        fig, axes = self.plt.subplots(2, 1, figsize=(11, 6.5))
        for ax, i, label in ((axes[0], 0, "allocations per message"),
                             (axes[1], 1, "peak heap, KiB")):
            x = 0.0
            ticks, seen = [], set()
            for f in families:
                start = x
                for a in adapters:
                    if (a, f) not in cells:
                        continue
                    v = cells[(a, f)][i] or 0
                    ax.bar(x, v / 1024 if i else v, width=0.9, color=self.color(a),
                           label=a if a not in seen else None)
                    seen.add(a)
                    x += 1
                ticks.append((start + x - 1) / 2)
                x += 1.2
            ax.set_xticks(ticks)
            ax.set_xticklabels([short(f) for f in families])
            ax.set_ylabel(label)
            ax.grid(axis="y", alpha=0.3)
        axes[0].set_title(f"decode of {file}: allocations and peak memory per adapter")
        axes[0].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
        fig.tight_layout()
        return fig

    def phase_bars(self, bars, phases, title):
        """Stacked horizontal bars of a call's phases (bars: [(label, [ns per phase])])."""
        fig, ax = self.plt.subplots(figsize=(9, 0.28 * len(bars) + 1.4))
        colors = self.plt.get_cmap("tab10")
        ys = list(range(len(bars)))[::-1]
        left = [0.0] * len(bars)
        for j, label in enumerate(phases):
            vals = [(b[1][j] or 0) / 1e3 for b in bars]
            ax.barh(ys, vals, left=left, color=colors(j), label=label, height=0.75)
            left = [l + v for l, v in zip(left, vals)]
        ax.set_yticks(ys)
        ax.set_yticklabels([b[0] for b in bars], fontsize=7)
        ax.set_xlabel("µs per call")
        ax.set_title(title)
        ax.grid(axis="x", alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
        return fig

    def share_lines(self, shares, xs):
        """Per call, each family's parser share on each link (shares: parser_shares dicts)."""
        from sbtools.fmt import short
        fig, axes = self.plt.subplots(1, len(shares), figsize=(3.4 * len(shares) + 1.5, 3.6),
                                      squeeze=False)
        for ax, sh in zip(axes[0], shares):
            for fam, v in sh["rows"].items():
                ys = [v.get(x) for x in xs]
                ax.plot(range(len(xs)), [y if y else float("nan") for y in ys], marker="o",
                        markersize=3, color=self.color(fam), label=f"{short(fam)}")
            ax.set_xticks(range(len(xs)))
            ax.set_xticklabels(xs, rotation=30, fontsize=7)
            ax.set_yscale("log")
            ax.set_title(f"keep-alive {sh['call']}", fontsize=9)
            ax.set_ylabel("parser share of the call, %")
            ax.grid(alpha=0.3)
        axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
        fig.tight_layout()
        return fig

    def load_charts(self, runs, label):
        """TPS against connections per family (one chart per call); latency against rate."""
        out = []
        for call in sorted({r["call"] for r in runs}):
            closed = [r for r in runs if r["mode"] == "closed" and r["call"] == call and r["points"]]
            fams = sorted({r["family"] for r in closed})
            if not fams:
                continue
            fig, axes = self.plt.subplots(1, len(fams), figsize=(3.2 * len(fams), 3.2),
                                          sharey=True, squeeze=False)
            for ax, fam in zip(axes[0], fams):
                for r in (r for r in closed if r["family"] == fam):
                    pts = sorted(r["points"], key=lambda p: p["connections"])
                    ax.plot([p["connections"] for p in pts], [p["tps"] or 0 for p in pts],
                            marker="o", label=label(r), color=self.color(label(r)))
                ax.set_xscale("log", base=2)
                ax.set_title(fam, fontsize=8)
                ax.set_xlabel("connections")
                ax.legend(fontsize=6)
            axes[0][0].set_ylabel("transactions / s")
            out.append(self.save(fig, f"load_tps_{call}.svg", f"TPS against connections, {call}"))
        opened = [r for r in runs if r["mode"] == "open" and r["points"]]
        if opened:
            fig, ax = self.plt.subplots(figsize=(6, 3.6))
            for r in opened:
                pts = sorted(r["points"], key=lambda p: p["tps"] or 0)
                for q, style in (("p50_us", "-"), ("p99_us", "--")):
                    ax.plot([p["tps"] or 0 for p in pts], [(p[q] or 0) / 1000 for p in pts], style,
                            marker="o", label=f"{r['call']} {q[:-3]}")
            ax.set_yscale("log")
            ax.set_xlabel("achieved calls / s")
            ax.set_ylabel("latency from the due time, ms")
            ax.legend(fontsize=7)
            out.append(self.save(fig, "load_latency_rate.svg", "Latency against achieved rate"))
        return out

    def speed_scatter(self, points):
        """Decode geomean (x, log) against not-wf rejected % (y) per adapter (points: [(adapter,
        format, geomean, %)]), the standard suites' chart."""
        fig, ax = self.plt.subplots(figsize=(8, 5))
        for name, fmt, g, p in points:
            ax.scatter([g], [p], color="tab:blue" if fmt == "xml" else "tab:orange",
                       label=fmt.upper())
            ax.annotate(name, (g, p), fontsize=7, xytext=(3, 3), textcoords="offset points")
        ax.set_xscale("log")
        ax.set_xlabel("decode time, geometric mean over families (× the fastest of its format)")
        ax.set_ylabel("not-well-formed documents rejected (%), as benchmarked")
        ax.set_title("Speed against conformance (W3C XML suite, JSONTestSuite)")
        ax.set_ylim(0, 105)
        ax.grid(True, which="both", alpha=0.3)
        handles, labels = ax.get_legend_handles_labels()
        unique = dict(zip(labels, handles))
        ax.legend(unique.values(), unique.keys())
        return fig
