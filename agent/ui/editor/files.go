package editor

import (
	"context"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/tools/fsedit"
)

// fileEditor is the client's file system as the file tools' editor: the
// directions the client offers (fs.readTextFile, fs.writeTextFile); nil
// when it offers neither, and the tools use the disk.
func (s *session) fileEditor(fs acp.FileSystemCapabilities) *fsedit.Editor {
	if !fs.ReadTextFile && !fs.WriteTextFile {
		return nil
	}
	var e fsedit.Editor
	if fs.ReadTextFile {
		e.Read = func(ctx context.Context, abs string) (string, error) {
			resp, err := s.a.conn.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: acp.SessionId(s.id), Path: abs})
			if err != nil {
				// The file tools read the disk instead.
				s.a.logf("the editor did not read %s: %v", abs, err)
			}
			return resp.Content, err
		}
	}
	if fs.WriteTextFile {
		e.Write = func(ctx context.Context, abs, text string) error {
			_, err := s.a.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: acp.SessionId(s.id), Path: abs, Content: text})
			return err
		}
	}
	return &e
}
