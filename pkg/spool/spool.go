// Package spool keeps the records magehook exports over OpenTelemetry
// (otel.export yes) in a bounded directory on the machine until a
// separate program, the shipper (module github.com/magehook/magehook/otel),
// sends them to the team's collector. A tool call never waits on the
// network: the hook binary only appends a line here.
//
// The directory holds the live file (live.jsonl), appended to with one
// O_APPEND write per record through package jsonlog; closed segments
// (seg-<sequence>-<records>.jsonl), which the live file becomes once it
// holds SegmentBytes or when the shipper takes it; dropped, the count of
// records dropped to keep the bound; and two lock files. Appenders hold
// .lock shared while they write and a rotation holds it exclusive, so a
// line is never written into a segment after the shipper has read it. A
// running shipper holds ship.lock.
//
// The bound: closed segments together hold at most MaxRecords records and
// MaxBytes bytes (the live file adds at most one segment). When a new
// segment would pass it, the oldest segments are removed first and their
// records added to dropped, which the shipper reports.
package spool

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/jsonlog"
)

// The defaults of a Spool's bounds.
const (
	DefaultMaxRecords   = 100_000
	DefaultMaxBytes     = 64 << 20
	DefaultSegmentBytes = 256 << 10
)

// File names inside the spool directory.
const (
	LiveName    = "live.jsonl"
	DroppedName = "dropped"
	LockName    = ".lock"
	ShipLock    = "ship.lock"
	segPrefix   = "seg-"
	segSuffix   = ".jsonl"
)

// Spool is one spool directory. The zero bounds mean the defaults.
type Spool struct {
	// Dir is the spool directory (<state.dir>/otel by convention).
	Dir          string
	MaxRecords   int
	MaxBytes     int64
	SegmentBytes int64
}

func (s Spool) maxRecords() int {
	if s.MaxRecords > 0 {
		return s.MaxRecords
	}
	return DefaultMaxRecords
}

func (s Spool) maxBytes() int64 {
	if s.MaxBytes > 0 {
		return s.MaxBytes
	}
	return DefaultMaxBytes
}

func (s Spool) segmentBytes() int64 {
	if s.SegmentBytes > 0 {
		return s.SegmentBytes
	}
	return DefaultSegmentBytes
}

// Append writes recs as lines of the live file, in one write. rotated
// reports that the live file became a segment first (it was full), so the
// caller may start the shipper (see Kick).
func (s Spool) Append(recs ...jsonlog.Appender) (rotated bool, err error) {
	var lines []byte
	for _, r := range recs {
		lines = append(r.AppendJSON(lines), '\n')
	}
	root, err := confined.Open(s.Dir)
	if err != nil {
		return false, err
	}
	defer root.Close()
	if info, err := root.Lstat(LiveName); err == nil && info.Size()+int64(len(lines)) > s.segmentBytes() {
		if err := s.withLock(root, true, func() error { return s.rotate(root, true) }); err != nil {
			return false, err
		}
		rotated = true
	}
	return rotated, s.withLock(root, false, func() error { return jsonlog.AppendLine(root, LiveName, lines) })
}

// withLock runs f holding .lock, exclusive or shared (on Unix one open
// and one flock: an appender pays for it on every call).
func (s Spool) withLock(root *confined.Root, exclusive bool, f func() error) error {
	release, err := lockIn(root, exclusive)
	if err != nil {
		return err
	}
	defer release()
	return f()
}

// Rotate makes the live file a segment when it holds any record (the
// shipper calls it to take everything written so far).
func (s Spool) Rotate() error {
	root, err := confined.Open(s.Dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return s.withLock(root, true, func() error { return s.rotate(root, false) })
}

// rotate renames the live file to the next segment and keeps the bound;
// the caller holds .lock exclusive. full says the rotation is an
// appender's (the live file is full): one that another appender already
// made is not made again.
func (s Spool) rotate(root *confined.Root, full bool) error {
	info, err := root.Lstat(LiveName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.Size() == 0 || (full && info.Size() < s.segmentBytes()/2) {
		return nil
	}
	f, err := root.OpenFile(LiveName, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return err
	}
	data, err := readAll(f, info.Size())
	f.Close()
	if err != nil {
		return err
	}
	n := strings.Count(string(data), "\n")
	segs, err := s.segments(root)
	if err != nil {
		return err
	}
	seq := uint64(1)
	if len(segs) > 0 {
		seq = segs[len(segs)-1].Seq + 1
	}
	if seq < s.nextSeq(root) {
		seq = s.nextSeq(root)
	}
	name := fmt.Sprintf("%s%020d-%d%s", segPrefix, seq, n, segSuffix)
	if err := root.Rename(LiveName, name); err != nil {
		return err
	}
	s.writeFile(root, "seq", strconv.FormatUint(seq+1, 10))
	segs = append(segs, Segment{Name: name, Seq: seq, Records: n, Bytes: info.Size()})
	return s.bound(root, segs)
}

// nextSeq is the sequence number after the last segment ever made: a
// spool whose segments were all shipped keeps counting, so that a
// segment's name is never used twice.
func (s Spool) nextSeq(root *confined.Root) uint64 {
	f, err := root.OpenFile("seq", os.O_RDONLY|noFollow, 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	b, _ := readAll(f, 32)
	n, _ := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return n
}

// bound removes the oldest segments until the rest are within the bound,
// counting their records as dropped.
func (s Spool) bound(root *confined.Root, segs []Segment) error {
	records, bytes := 0, int64(0)
	for _, g := range segs {
		records += g.Records
		bytes += g.Bytes
	}
	dropped := 0
	for len(segs) > 1 && (records > s.maxRecords() || bytes > s.maxBytes()) {
		g := segs[0]
		segs = segs[1:]
		if err := root.Remove(g.Name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		records -= g.Records
		bytes -= g.Bytes
		dropped += g.Records
	}
	if dropped > 0 {
		s.writeFile(root, DroppedName, strconv.FormatInt(s.dropped(root)+int64(dropped), 10))
	}
	return nil
}

func (s Spool) writeFile(root *confined.Root, name, value string) {
	tmp := name + ".tmp"
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o600)
	if err != nil {
		return
	}
	_, werr := f.WriteString(value + "\n")
	if cerr := f.Close(); werr == nil && cerr == nil {
		root.Rename(tmp, name)
	}
}

func (s Spool) dropped(root *confined.Root) int64 {
	f, err := root.OpenFile(DroppedName, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	b, _ := readAll(f, 32)
	n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n
}

// Dropped is how many records the bound has dropped since the spool was
// made (the shipper reports the growth).
func (s Spool) Dropped() int64 {
	root, err := confined.Open(s.Dir)
	if err != nil {
		return 0
	}
	defer root.Close()
	return s.dropped(root)
}

// Segment is one closed segment.
type Segment struct {
	// Name is the file name in the spool directory.
	Name    string
	Seq     uint64
	Records int
	Bytes   int64
}

// Segments lists the closed segments, oldest first.
func (s Spool) Segments() ([]Segment, error) {
	root, err := confined.Open(s.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return s.segments(root)
}

func (s Spool) segments(root *confined.Root) ([]Segment, error) {
	entries, err := root.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var out []Segment
	for _, e := range entries {
		name := e.Name()
		mid, ok := strings.CutPrefix(name, segPrefix)
		if !ok || !strings.HasSuffix(mid, segSuffix) || !e.Type().IsRegular() {
			continue
		}
		seqText, countText, ok := strings.Cut(strings.TrimSuffix(mid, segSuffix), "-")
		seq, err1 := strconv.ParseUint(seqText, 10, 64)
		n, err2 := strconv.Atoi(countText)
		if !ok || err1 != nil || err2 != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, Segment{Name: name, Seq: seq, Records: n, Bytes: info.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}

// ReadSegment returns a segment's bytes.
func (s Spool) ReadSegment(g Segment) ([]byte, error) {
	f, err := confined.OpenIn(s.Dir, g.Name, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, g.Bytes)
}

// Remove removes a shipped segment.
func (s Spool) Remove(g Segment) error {
	root, err := confined.Open(s.Dir)
	if err != nil {
		return err
	}
	defer root.Close()
	err = root.Remove(g.Name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // the bound dropped it meanwhile, and counted it
	}
	return err
}

// HasWork reports whether the spool holds a closed segment or a live file
// with records in it.
func (s Spool) HasWork() bool {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), segPrefix) {
			return true
		}
		if e.Name() == LiveName {
			if info, err := e.Info(); err == nil && info.Size() > 0 {
				return true
			}
		}
	}
	return false
}

func readAll(f *os.File, size int64) ([]byte, error) {
	buf := make([]byte, 0, size+512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				return buf, nil
			}
			return buf, err
		}
	}
}
