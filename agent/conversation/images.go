package conversation

import "context"

// AttachImage fits an image the person chose (data, named source) to the
// model and sends it with the next message. A model that cannot see
// images gets agent.ErrNoImages.
func (c *Conversation) AttachImage(ctx context.Context, data []byte, source string) error {
	img, err := c.agent.FitAttachment(ctx, data, source)
	if err != nil {
		return err
	}
	c.agent.Attach(img)
	return nil
}
