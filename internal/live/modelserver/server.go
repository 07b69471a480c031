package modelserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Script is what the model does in one conversation.
type Script struct {
	// Key selects the conversation: the first user turn must contain it.
	// An empty Key matches every conversation that offers tools.
	Key string
	// Steps are the model's turns in order.
	Steps []Step
	// Final is the text of every turn after the last step ("done" when
	// empty): a client that carries on after the script, say because a
	// Stop hook blocked, gets an ordinary closing answer.
	Final string
}

// Step is one model turn: tool calls, text, or an HTTP error.
type Step struct {
	// Calls are the tool calls of the turn, made in one answer.
	Calls []Call
	// Text is said before the calls, or is the whole answer without them.
	Text string
	// Status, when not zero, answers the request with this HTTP status and
	// an error body in the protocol's shape, with Text as the message.
	Status int
}

// Call is one tool call.
type Call struct {
	// Name is the tool's name as the client declares it.
	Name string
	// Input is the tool's arguments, marshalled to JSON; for a custom
	// (free-form) tool, a string sent as it is.
	Input any
}

// Bash is a Call of Claude Code's Bash tool.
func Bash(command string) Call {
	return Call{Name: "Bash", Input: map[string]any{"command": command, "description": "scripted"}}
}

// Request is one logged request.
type Request struct {
	// Protocol is "anthropic", "responses", "chat" or "gemini".
	Protocol string
	// Method and Path are the request line's; Path includes the query.
	Method, Path string
	// Script is the Key of the script that answered, or "" for a side
	// request.
	Script string
	// Scripted reports whether a script answered.
	Scripted bool
	// Step is the script's step index that answered (-1 for a side
	// request; len(Steps) and beyond for Final).
	Step int
	// Body is the request body as received.
	Body []byte
}

// Texts returns every string in the body, at any depth, so a test can
// look for a message whatever the protocol's shape and JSON escaping.
func (r Request) Texts() []string {
	var v any
	if json.Unmarshal(r.Body, &v) != nil {
		return []string{string(r.Body)}
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// Server is a running scripted model.
type Server struct {
	// URL is the base URL, http://127.0.0.1:<port>, without a path.
	URL string

	ln      net.Listener
	srv     *http.Server
	mu      sync.Mutex
	scripts []Script
	log     []Request
}

// Start listens on a free loopback port and serves the scripts.
func Start(scripts ...Script) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), ln: ln, scripts: scripts}
	mux := http.NewServeMux()
	mux.HandleFunc("/", s.route)
	s.srv = &http.Server{Handler: mux}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// SetScripts replaces the scripts, for the next session of a scenario.
func (s *Server) SetScripts(scripts ...Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scripts = scripts
}

// Requests returns a copy of the log, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// Scripted returns the requests a script answered.
func (s *Server) Scripted() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Scripted {
			out = append(out, r)
		}
	}
	return out
}

// Reached reports whether some scripted request carried a string
// containing text: what the client put in front of the model.
func (s *Server) Reached(text string) bool {
	for _, r := range s.Scripted() {
		for _, t := range r.Texts() {
			if strings.Contains(t, text) {
				return true
			}
		}
	}
	return false
}

// Dump is the log, one request per paragraph, for a failure message.
func (s *Server) Dump() string {
	var b strings.Builder
	for i, r := range s.Requests() {
		fmt.Fprintf(&b, "#%d %s %s %s script=%q step=%d\n%s\n\n", i, r.Protocol, r.Method, r.Path, r.Script, r.Step, r.Body)
	}
	return b.String()
}

// conversation is what a protocol reads from a request body: the text of
// the first user turn, how many model turns it already holds, the tools
// it offers and whether the answer is streamed.
type conversation struct {
	first  string
	turns  int
	tools  map[string]string // name to kind: "function" or "custom"
	stream bool
	json   bool // the request asks for a JSON answer (a side request gets "{...}")
}

// pick finds the script for a conversation and the step to answer with.
func (s *Server) pick(c conversation) (Script, int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(c.tools) == 0 {
		return Script{}, -1, false
	}
	for _, sc := range s.scripts {
		if sc.Key == "" || strings.Contains(c.first, sc.Key) {
			return sc, c.turns, true
		}
	}
	return Script{}, -1, false
}

// step returns the script's step n, or its Final text past the end.
func (sc Script) step(n int) Step {
	if n >= 0 && n < len(sc.Steps) {
		return sc.Steps[n]
	}
	final := sc.Final
	if final == "" {
		final = "done"
	}
	return Step{Text: final}
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, r)
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.RequestURI(), Body: body, Step: -1}
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/messages/count_tokens"):
		req.Protocol = "anthropic"
		s.record(req)
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 1 + len(body)/4})
	case strings.HasSuffix(p, "/models") && r.Method == http.MethodGet:
		req.Protocol = "models"
		s.record(req)
		writeJSON(w, http.StatusOK, modelList())
	case strings.HasSuffix(p, "/messages"):
		req.Protocol = "anthropic"
		s.answer(w, req, anthropic{})
	case strings.HasSuffix(p, "/responses"):
		req.Protocol = "responses"
		s.answer(w, req, responses{})
	case strings.HasSuffix(p, "/chat/completions"):
		req.Protocol = "chat"
		s.answer(w, req, chat{})
	case strings.Contains(p, ":countTokens"):
		req.Protocol = "gemini"
		s.record(req)
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": 1 + len(body)/4})
	case strings.Contains(p, ":streamGenerateContent"), strings.Contains(p, ":generateContent"):
		req.Protocol = "gemini"
		s.answer(w, req, gemini{stream: strings.Contains(p, ":streamGenerateContent")})
	default:
		req.Protocol = "unknown"
		s.record(req)
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"message": "modelserver: no route for " + r.Method + " " + p}})
	}
}

// protocol is one wire format.
type protocol interface {
	parse(body []byte) (conversation, error)
	// reply writes a scripted step or a side answer (side true).
	reply(w http.ResponseWriter, c conversation, st Step, n int, side bool)
	// fail writes an HTTP error in the protocol's shape.
	fail(w http.ResponseWriter, status int, message string)
}

func (s *Server) answer(w http.ResponseWriter, req Request, p protocol) {
	c, err := p.parse(req.Body)
	if err != nil {
		s.record(req)
		p.fail(w, http.StatusBadRequest, "modelserver: "+err.Error())
		return
	}
	sc, n, ok := s.pick(c)
	if !ok {
		s.record(req)
		p.reply(w, c, Step{Text: "ok"}, 0, true)
		return
	}
	req.Script, req.Scripted, req.Step = sc.Key, true, n
	s.record(req)
	st := sc.step(n)
	if st.Status != 0 {
		p.fail(w, st.Status, st.Text)
		return
	}
	p.reply(w, c, st, n, false)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// sse writes Server-Sent Events, flushing each.
type sse struct {
	w http.ResponseWriter
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	// Some clients (OpenCode) wait for the connection to close, not only
	// for the stream's last event.
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

// event writes one event; an empty name writes a data-only event.
func (e sse) event(name string, v any) {
	var b bytes.Buffer
	if name != "" {
		fmt.Fprintf(&b, "event: %s\n", name)
	}
	data, _ := json.Marshal(v)
	fmt.Fprintf(&b, "data: %s\n\n", data)
	e.w.Write(b.Bytes())
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (e sse) raw(line string) {
	io.WriteString(e.w, line)
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// arguments is a call's Input as JSON text (a string as it is for custom
// tools).
func (c Call) arguments(custom bool) string {
	if s, ok := c.Input.(string); ok && custom {
		return s
	}
	if c.Input == nil {
		return "{}"
	}
	b, err := json.Marshal(c.Input)
	if err != nil {
		return "{}"
	}
	return string(b)
}

func (c Call) object() map[string]any {
	var m map[string]any
	json.Unmarshal([]byte(c.arguments(false)), &m)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

func callID(prefix string, n, i int) string { return fmt.Sprintf("%s%d_%d", prefix, n, i) }

func modelList() map[string]any {
	ids := []string{"claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"}
	var data []map[string]any
	for _, id := range ids {
		data = append(data, map[string]any{"type": "model", "id": id, "display_name": id, "created_at": "2025-01-01T00:00:00Z",
			"object": "model", "created": 1735689600, "owned_by": "modelserver"})
	}
	return map[string]any{"data": data, "object": "list", "has_more": false, "first_id": ids[0], "last_id": ids[len(ids)-1]}
}
