package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// firstRequestBudget is the most bytes the read-then-answer task's first
// request may take (cmd/agent's TestFirstRequestBudget holds it too).
const firstRequestBudget = 8192

// sizeBudget is the most a binary may weigh, in MB.
const sizeBudget = 40

// budget is the most a command may take, warm: peak memory in MB and
// wall time in ms (0: no budget).
type budget struct{ rss, wall float64 }

// budgets are what every command pays at start, as measured on a quiet
// 2-core machine; the chat's memory is once idle.
var budgets = map[string]budget{
	"version": {rss: 26},
	"run":     {rss: 30, wall: 16},
	"serve":   {rss: 30, wall: 12},
	"chat":    {rss: 32},
}

// The start-up rule: a change stays within ruleShare or ruleFloor of the
// base's wall time, whichever is larger, and within ruleShare of its peak
// memory; for the chat, of its idle memory (its time to a ready prompt is
// mostly tmux's, shown but not judged). 5% is inside this machine's
// run-to-run spread.
const (
	ruleShare = 0.10
	ruleFloor = time.Millisecond
)

func mb(kib int64) float64 { return float64(kib) / 1024 }

func rssOf(s sample) float64  { return mb(s.maxRSS) }
func wallOf(s sample) float64 { return float64(s.wall.Microseconds()) / 1000 }
func cpuOf(s sample) float64  { return float64(s.cpu.Microseconds()) / 1000 }

// median returns the median of f over ss.
func median(ss []sample, f func(sample) float64) float64 {
	var xs []float64
	for _, s := range ss {
		xs = append(xs, f(s))
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// report prints the medians, then the start-up rule and the budgets for
// the last binary; it returns an error naming what is over.
func report(bins []*target, runs int, loadAtStart string) error {
	base, now := bins[0], bins[len(bins)-1]
	fmt.Printf("%d rounds: each command cold (page cache dropped) then warm, the binaries alternating; medians (MB = 2^20 bytes)\n", runs)
	fmt.Printf("load average (1, 5, 15 min): %s at the start, %s at the end\n\n", loadAtStart, loadAverage())
	for _, b := range bins {
		fmt.Printf("%-10s binary %6.1f MB %+7.1f%%\n", b.label, float64(b.size)/(1<<20), 100*(float64(b.size)/float64(base.size)-1))
	}
	fmt.Printf("\n%-8s %-5s %-10s %8s %7s %8s %7s %7s %7s %6s %6s\n", "command", "cache", "binary", "maxRSS", "vs[0]", "wall-ms", "vs[0]", "cpu-ms", "faults", "anon", "file")
	for _, cmd := range commands {
		for _, cold := range []bool{true, false} {
			for _, b := range bins {
				line(cmd, cold, b, base)
			}
		}
	}
	for _, b := range bins {
		for _, cmd := range commands {
			if why := b.skip[cmd]; why != "" {
				fmt.Printf("%s: %s left out (%s)\n", b.label, cmd, why)
			}
		}
	}
	fmt.Println("maxRSS: peak resident set (getrusage, as /usr/bin/time -f %M); for chat, VmRSS after a second idle.")
	fmt.Println("wall-ms: for chat, launch to a ready prompt in tmux, tmux's own start included.")
	fmt.Println("faults: page faults (getrusage), the work of starting that no load on the machine changes.")
	fmt.Println("anon, file: resident anonymous and file-backed memory of run (smaps_rollup) just before the answer.")
	for _, b := range bins {
		if len(b.samples[key("run", false)]) > 0 {
			fmt.Printf("%s: the run's first request to the model is %d bytes (budget %d)\n", b.label, b.firstRequest, firstRequestBudget)
		}
	}
	if err := ownPeakBelow(bins); err != nil {
		return err
	}
	var over []string
	if len(bins) > 1 {
		fmt.Printf("\nthe start-up rule, %s against %s (warm): wall within %.0f%% or %v, memory within %.0f%%\n", now.label, base.label, 100*ruleShare, ruleFloor, 100*ruleShare)
		over = append(over, checkRule(base, now)...)
	}
	fmt.Printf("\nthe budgets, %s (warm)\n", now.label)
	over = append(over, checkBudgets(now)...)
	if len(over) > 0 {
		fmt.Println()
		return fmt.Errorf("over: %s", strings.Join(over, "; "))
	}
	return nil
}

// line prints the medians of one command of b, against base's.
func line(cmd string, cold bool, b, base *target) {
	ss := b.samples[key(cmd, cold)]
	if len(ss) == 0 {
		return
	}
	ref := base.samples[key(cmd, cold)]
	if len(ref) == 0 {
		ref = ss
	}
	cache := "warm"
	if cold {
		cache = "cold"
	}
	anon, file, cpu, faults := "-", "-", "-", "-"
	if ss[0].haveRollup {
		anon = fmt.Sprintf("%.1f", median(ss, func(s sample) float64 { return mb(s.anon) }))
		file = fmt.Sprintf("%.1f", median(ss, func(s sample) float64 { return mb(s.file) }))
	}
	if cmd != "chat" {
		cpu = fmt.Sprintf("%.1f", median(ss, cpuOf))
		faults = fmt.Sprintf("%.0f", median(ss, func(s sample) float64 { return float64(s.faults) }))
	}
	rss, wall := median(ss, rssOf), median(ss, wallOf)
	fmt.Printf("%-8s %-5s %-10s %8.1f %+6.1f%% %8.1f %+6.1f%% %7s %7s %6s %6s\n", cmd, cache, b.label,
		rss, 100*(rss/median(ref, rssOf)-1), wall, 100*(wall/median(ref, wallOf)-1), cpu, faults, anon, file)
}

// checkRule prints each command's verdict by the start-up rule and
// returns what broke it.
func checkRule(base, now *target) []string {
	var over []string
	for _, cmd := range commands {
		b, n := base.samples[key(cmd, false)], now.samples[key(cmd, false)]
		if len(b) == 0 || len(n) == 0 {
			continue
		}
		bw, nw := median(b, wallOf), median(n, wallOf)
		allowed := max(bw*ruleShare, float64(ruleFloor.Microseconds())/1000)
		br, nr := median(b, rssOf), median(n, rssOf)
		wallOK, rssOK := nw <= bw+allowed || cmd == "chat", nr <= br*(1+ruleShare)
		wall := fmt.Sprintf("wall %6.1f ms (base %.1f, at most %.1f) %-4s", nw, bw, bw+allowed, verdict(wallOK))
		if cmd == "chat" {
			wall = fmt.Sprintf("%-47s", "wall not judged")
		}
		fmt.Printf("  %-8s %s   memory %5.1f MB (base %.1f, at most %.1f) %s\n", cmd, wall, nr, br, br*(1+ruleShare), verdict(rssOK))
		if !wallOK {
			over = append(over, fmt.Sprintf("%s wall %.1f ms, base %.1f", cmd, nw, bw))
		}
		if !rssOK {
			over = append(over, fmt.Sprintf("%s memory %.1f MB, base %.1f", cmd, nr, br))
		}
	}
	return over
}

// checkBudgets prints b's figures against the budgets and returns what
// is over.
func checkBudgets(b *target) []string {
	var over []string
	check := func(what string, got, most float64, unit string) {
		ok := got <= most
		fmt.Printf("  %-22s %8.1f %-2s (at most %g) %s\n", what, got, unit, most, verdict(ok))
		if !ok {
			over = append(over, fmt.Sprintf("%s %.1f %s > %g", what, got, unit, most))
		}
	}
	check("binary", float64(b.size)/(1<<20), sizeBudget, "MB")
	for _, cmd := range commands {
		ss := b.samples[key(cmd, false)]
		if len(ss) == 0 {
			continue
		}
		bud := budgets[cmd]
		if bud.rss > 0 {
			check(cmd+" memory", median(ss, rssOf), bud.rss, "MB")
		}
		if bud.wall > 0 {
			check(cmd+" wall", median(ss, wallOf), bud.wall, "ms")
		}
	}
	if len(b.samples[key("run", false)]) > 0 {
		check("run's first request", float64(b.firstRequest), firstRequestBudget, "B ")
	}
	return over
}

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "OVER"
}

// ownPeakBelow checks the figures are the agent's: os/exec starts
// children with vfork (CLONE_VM), and at exec the kernel carries the
// parent's high-water mark into the child's ru_maxrss, so the figures are
// the children's only while this process stays smaller than they are.
func ownPeakBelow(bins []*target) error {
	own := ownPeakKiB()
	if own == 0 {
		return nil
	}
	for _, b := range bins {
		ss := b.samples[key("version", false)]
		if len(ss) == 0 {
			continue
		}
		if m := median(ss, rssOf); mb(own) >= m {
			return fmt.Errorf("this process's own peak RSS (%.1f MB) is not below %s's (%.1f MB): the figures are not the agent's", mb(own), b.label, m)
		}
	}
	return nil
}

// ownPeakKiB is this process's peak resident set (VmHWM), 0 if unknown.
func ownPeakKiB() int64 { return statusKiB(os.Getpid(), "VmHWM") }
