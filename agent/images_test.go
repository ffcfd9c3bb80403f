package agent_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/anthropic"
	"github.com/agentcli/agent/agent/llm/gemini"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/ollama"
	"github.com/agentcli/agent/agent/llm/openai"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/sandbox"
)

const readShot = `<tool_call name="read_file" id="1"><file_path>shot.png</file_path></tool_call>`

// imageProject is a project holding a w×h screenshot, shot.png, with
// the real file tools.
func imageProject(t *testing.T, w, h int) (root string, reg *tools.Registry, shot []byte) {
	t.Helper()
	root = t.TempDir()
	shot = llmtest.PNG(t, w, h)
	if err := os.WriteFile(filepath.Join(root, "shot.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	fr := sandbox.NewRoot(root, sandbox.Options{})
	t.Cleanup(func() { fr.Close() })
	return root, tools.NewRegistry(fsedit.NewTools(fr)...), shot
}

func newImageAgent(t *testing.T, root string, reg *tools.Registry, model llm.Model) *agent.Agent {
	t.Helper()
	a := &agent.Agent{Model: model, Tools: reg, Session: agent.NewSession(root), System: "You are a test.", Approval: agent.NewApproval(agent.PolicyAuto)}
	t.Cleanup(func() { a.Session.Close() })
	return a
}

// TestReadImageReachesTheModel: through each real SDK, read_file of a
// 4000×3000 PNG sends the picture, scaled to the provider's limits,
// after the tool response that says it is there.
func TestReadImageReachesTheModel(t *testing.T) {
	for _, tc := range []struct {
		name      string
		newServer func(testing.TB, ...llmtest.Answer) *llmtest.Server
		newModel  func(s *llmtest.Server) (llm.Model, error)
		w, h      int
	}{
		{"gemini", llmtest.NewGeminiServer, func(s *llmtest.Server) (llm.Model, error) {
			return gemini.New(t.Context(), gemini.Options{Model: "gemini-2.5-flash", APIKey: "k", BaseURL: s.URL})
		}, 3072, 2304},
		{"openai", llmtest.NewOpenAIServer, func(s *llmtest.Server) (llm.Model, error) {
			return openai.New(openai.Options{Model: "gpt-4o", APIKey: "k", BaseURL: s.URL})
		}, 1024, 768},
		{"anthropic", llmtest.NewAnthropicServer, func(s *llmtest.Server) (llm.Model, error) {
			return anthropic.New(anthropic.Options{Model: "claude-sonnet-4-5", APIKey: "k", BaseURL: s.URL})
		}, 1260, 945},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, reg, _ := imageProject(t, 4000, 3000)
			s := tc.newServer(t, llmtest.Say("Let me look.\n"+readShot), llmtest.Say("The button overlaps the title."))
			model, err := tc.newModel(s)
			if err != nil {
				t.Fatal(err)
			}
			a := newImageAgent(t, root, reg, model)
			out, err := a.Run(t.Context(), "what is wrong with shot.png?", nil)
			if err != nil {
				t.Fatal(err)
			}
			if out.Answer != "The button overlaps the title." {
				t.Errorf("answer %q", out.Answer)
			}
			r := s.Requests()[1]
			imgs := r.Images()
			if len(imgs) != 1 {
				t.Fatalf("second request carries %d images, want the screenshot", len(imgs))
			}
			if imgs[0].Width != tc.w || imgs[0].Height != tc.h || imgs[0].MIME != "image/png" {
				t.Errorf("sent %s %d×%d (as decoded from the request), want PNG %d×%d", imgs[0].MIME, imgs[0].Width, imgs[0].Height, tc.w, tc.h)
			}
			last := r.LastUser()
			if !strings.Contains(last, `<tool_response id="1">`) || !strings.Contains(last, "The image is attached to this message") || !strings.Contains(last, "4000×3000") {
				t.Errorf("the tool response does not say where the image is:\n%s", last)
			}
		})
	}
}

// TestTextOnlyModelGetsWords: a model that cannot see images (Ollama
// says it has no vision) is told what the file is, and sent no image.
func TestTextOnlyModelGetsWords(t *testing.T) {
	root, reg, _ := imageProject(t, 800, 600)
	s := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:latest", Max: 40960}},
		llmtest.Say(readShot), llmtest.Say("I cannot see it."))
	model, err := ollama.New(ollama.Options{Model: "qwen3", BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	a := newImageAgent(t, root, reg, model)
	if _, err := a.Run(t.Context(), "what is in shot.png?", nil); err != nil {
		t.Fatal(err)
	}
	var chats []llmtest.Request
	for _, r := range s.Requests() {
		if r.Path == "/api/chat" {
			chats = append(chats, r)
		}
	}
	last := chats[1]
	if n := len(last.Images()); n != 0 {
		t.Errorf("a text-only model was sent %d images", n)
	}
	if got := last.LastUser(); !strings.Contains(got, "This model cannot see images") || !strings.Contains(got, "shot.png is a PNG image, 800×600 pixels") {
		t.Errorf("the tool response does not describe the image in words:\n%s", got)
	}
	if strings.Contains(string(last.Body), `"images"`) {
		t.Error("the request body has an images field")
	}
}

// TestSessionStoresImagesOnce: two turns that send the same picture (the
// model reads it, then the person attaches it) store its bytes once; the
// log refers to it twice by digest, and a resumed session has it back.
func TestSessionStoresImagesOnce(t *testing.T) {
	root, reg, _ := imageProject(t, 800, 600)
	vision := &llm.ImageSpec{Accepts: true, MaxEdge: 400}
	model := llmtest.NewScript(llmtest.Reply{Text: readShot}, llmtest.Reply{Text: "A dashboard."}, llmtest.Reply{Text: "Still a dashboard."})
	model.Images = vision
	a := newImageAgent(t, root, reg, model)
	if _, err := a.Run(t.Context(), "look at shot.png", nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "shot.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := a.FitAttachment(t.Context(), data, "shot.png")
	if err != nil {
		t.Fatal(err)
	}
	a.Attach(img)
	if _, err := a.Run(t.Context(), "and this one?", nil); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	if n := len(reqs[2].Messages[len(reqs[2].Messages)-1].Images); n != 1 {
		t.Fatalf("the attached image did not reach the model: %d images", n)
	}
	if !strings.Contains(reqs[2].Messages[len(reqs[2].Messages)-1].Text, "[Attached image 1: shot.png, 400×300 png]") {
		t.Errorf("the prompt does not name its attachment: %q", reqs[2].Messages[len(reqs[2].Messages)-1].Text)
	}

	files, _ := filepath.Glob(filepath.Join(root, agent.SessionDir, a.Session.ID+".images", "*"))
	if len(files) != 1 || filepath.Base(files[0]) != img.SHA256+".png" {
		t.Fatalf("images stored: %v, want one file named by its digest", files)
	}
	stored, _ := os.ReadFile(files[0])
	if !bytes.Equal(stored, img.Data) {
		t.Error("the stored file is not the image sent")
	}
	log, err := os.ReadFile(a.Session.Path())
	if err != nil {
		t.Fatal(err)
	}
	if refs := strings.Count(string(log), `"sha256":"`+img.SHA256+`"`); refs != 2 {
		t.Errorf("the log refers to the image %d times, want 2", refs)
	}
	if head := base64.StdEncoding.EncodeToString(img.Data[:48]); strings.Contains(string(log), head) {
		t.Errorf("the log (%d bytes) holds the image's bytes in base64", len(log))
	}

	resumed, err := agent.OpenSession(root, a.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	var got []llm.Image
	for _, m := range resumed.Messages() {
		got = append(got, m.Images...)
	}
	if len(got) != 2 || !bytes.Equal(got[0].Data, img.Data) || got[0].CallID != "1" || got[1].CallID != "" || got[1].Source != "shot.png" {
		t.Errorf("resumed images: %d, want the read one and the attached one with their bytes", len(got))
	}
}

// TestResumeWithoutTheImageFile: an image whose file went missing (or
// was changed) is left out of a resumed conversation with a line saying
// so; the conversation goes on.
func TestResumeWithoutTheImageFile(t *testing.T) {
	root, reg, _ := imageProject(t, 800, 600)
	model := llmtest.NewScript(llmtest.Reply{Text: readShot}, llmtest.Reply{Text: "A dashboard."})
	model.Images = &llm.ImageSpec{Accepts: true, MaxEdge: 256}
	a := newImageAgent(t, root, reg, model)
	if _, err := a.Run(t.Context(), "look at shot.png", nil); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, agent.SessionDir, a.Session.ID+".images", "*"))
	if len(files) != 1 {
		t.Fatalf("images stored: %v", files)
	}
	os.WriteFile(files[0], []byte("changed"), 0o600)
	resumed, err := agent.OpenSession(root, a.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	msgs := resumed.Messages()
	last := msgs[len(msgs)-2] // the tool responses, before the answer
	if len(last.Images) != 0 || !strings.Contains(last.Text, "[Image shot.png could not be restored with the session (its file changed).]") {
		t.Errorf("resumed message: %d images, text %q", len(last.Images), last.Text)
	}
}

// TestImagesFadeFromTheBudget: images count in the context budget by the
// model's rule, and the oldest go when the conversation outgrows its
// room, each leaving a line that says so.
func TestImagesFadeFromTheBudget(t *testing.T) {
	root, reg, shot := imageProject(t, 800, 600)
	var replies []llmtest.Reply
	for i := range 4 {
		name := fmt.Sprintf("shot%d.png", i+1)
		if err := os.WriteFile(filepath.Join(root, name), shot, 0o644); err != nil {
			t.Fatal(err)
		}
		replies = append(replies, llmtest.Reply{Text: fmt.Sprintf(`<tool_call name="read_file" id="r%d"><file_path>%s</file_path></tool_call>`, i+1, name)})
	}
	replies = append(replies, llmtest.Reply{Text: "Seen enough."})
	model := llmtest.NewScript(replies...)
	// Each image costs 2,000 tokens by this model's rule: four do not
	// fit in a window of 8,000.
	model.Images = &llm.ImageSpec{Accepts: true, MaxEdge: 64, Tokens: func(w, h int) int { return 2000 }}
	a := newImageAgent(t, root, reg, model)
	a.Budget = &agent.Budget{Window: 8000, Reserve: 1000}
	if _, err := a.Run(t.Context(), "read shot.png four times", nil); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	last := reqs[len(reqs)-1]
	n := 0
	for _, m := range last.Messages {
		n += len(m.Images)
	}
	if n == 0 || n >= 4 {
		t.Errorf("the last request carries %d of 4 images, want the newest only, the oldest removed", n)
	}
	all, _ := json.Marshal(last.Messages)
	if !strings.Contains(string(all), "[The image shot1.png (call r1) was removed to save context; read it again if you need it.]") {
		t.Errorf("no line says the oldest image was removed: %s", all)
	}
	if used, window := a.Budget.InUse(); used > window-1000 || used < 2000 {
		t.Errorf("the last request was estimated at %d tokens of %d: the images are not counted", used, window)
	}
}

// TestAttachToATextOnlyModel is refused with the model's reason.
func TestAttachToATextOnlyModel(t *testing.T) {
	root, reg, shot := imageProject(t, 800, 600)
	a := newImageAgent(t, root, reg, llmtest.Texts("ok"))
	if _, err := a.FitAttachment(t.Context(), shot, "shot.png"); err == nil || !strings.Contains(err.Error(), "cannot see images") {
		t.Errorf("err = %v, want that the model cannot see images", err)
	}
}
