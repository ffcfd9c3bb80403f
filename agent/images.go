package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/imagefit"
	"github.com/agentcli/agent/tools"
)

// Images reach the model two ways: a person attaches them to a prompt
// (Attach: `agent run --image`), or a tool returns one (read_file of a
// PNG: tools.Result.Image). Either way the image is fitted to the model's
// limits (imagefit.Fit) once, before it enters the conversation, and
// travels after the text of its user message. A model that cannot see
// images (llm.ImageSpecOf) is told about a tool's image in words instead.

// ImageSpec is what the agent's model takes of images.
func (a *Agent) ImageSpec(ctx context.Context) llm.ImageSpec {
	return llm.ImageSpecOf(ctx, a.Model)
}

// Attach adds images, already fitted to the model (FitAttachment), to
// the next prompt Run sends. They stay attached until a Run takes them.
func (a *Agent) Attach(imgs ...llm.Image) { a.attached = append(a.attached, imgs...) }

// FitAttachment fits the picture in data, from the file named source, to
// what the agent's model takes, for Attach. It fails when the model
// cannot see images, or data is not a picture it could be made to read.
func (a *Agent) FitAttachment(ctx context.Context, data []byte, source string) (llm.Image, error) {
	spec := a.ImageSpec(ctx)
	if !spec.Accepts {
		return llm.Image{}, fmt.Errorf("%w: %s", ErrNoImages, spec.Why)
	}
	img, _, err := imagefit.Fit(data, spec)
	if err != nil {
		return llm.Image{}, err
	}
	img.Source = source
	return img, nil
}

// withAttached returns the prompt m with the attached images, and a line
// naming each after its text, so the model knows which file is which.
func (a *Agent) withAttached(m llm.Message) llm.Message {
	if len(a.attached) == 0 {
		return m
	}
	var b strings.Builder
	b.WriteString(m.Text)
	for i, img := range a.attached {
		fmt.Fprintf(&b, "\n[Attached image %d: %s, %d×%d %s]", i+1, img.Source, img.Width, img.Height, strings.TrimPrefix(img.MIME, "image/"))
	}
	m.Text, m.Images, a.attached = b.String(), a.attached, nil
	return m
}

// seeImage prepares a result that carries an image for the model: fitted
// to its limits, with Content saying where it is (after the tool
// responses of the next message); or, for a model that cannot see
// images, described in words and dropped.
func (a *Agent) seeImage(ctx context.Context, res tools.Result) tools.Result {
	if res.Image == nil {
		return res
	}
	src := res.Image.Path
	info, err := imagefit.Probe(res.Image.Data)
	if err != nil {
		return tools.Errorf(tools.CodeUnsupportedType, "%s is %v; it cannot be shown", src, err)
	}
	spec := a.ImageSpec(ctx)
	if !spec.Accepts {
		res.Image = nil
		res.Content = fmt.Sprintf("This model cannot see images (%s): %s is a %s. Ask the user what it shows if that matters for the task.", spec.Why, src, info)
		return res
	}
	img, _, err := imagefit.Fit(res.Image.Data, spec)
	if err != nil {
		return tools.Errorf(tools.CodeUnsupportedType, "%s is a %s, which cannot be sent to the model: %v", src, info, err)
	}
	res.Image = &tools.Image{MIME: img.MIME, Data: img.Data, Path: src, Width: img.Width, Height: img.Height}
	res.Metadata = append(res.Metadata,
		tools.Attr{Name: "width", Value: fmt.Sprint(info.Width)},
		tools.Attr{Name: "height", Value: fmt.Sprint(info.Height)})
	sent := ""
	if img.Width != info.Width || img.MIME != info.MIME {
		sent = fmt.Sprintf("; you see it scaled to %d×%d", img.Width, img.Height)
	}
	res.Content = fmt.Sprintf("The image is attached to this message, after the tool responses, in the order of the calls (%s%s).", info, sent)
	return res
}

// resultImages are the images of a turn's results, in the order of the
// calls, to send after the rendered responses.
func resultImages(results []CallResult) []llm.Image {
	var imgs []llm.Image
	for _, cr := range results {
		if im := cr.Result.Image; im != nil {
			img := llm.NewImage(im.MIME, im.Data, im.Width, im.Height)
			img.Source, img.CallID = im.Path, cr.ID
			imgs = append(imgs, img)
		}
	}
	return imgs
}
