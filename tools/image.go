package tools

// Image is a picture a tool hands the model beside its text result
// (read_file of a PNG, an MCP tool's image content). The loop fits it to
// the model's limits and sends it after the turn's tool responses; a
// model that cannot see images is told what it is in words instead (the
// result's Content then says so).
type Image struct {
	// MIME is image/png, image/jpeg, image/gif or image/webp, from the
	// file's content.
	MIME string
	// Data is the file as it is; the loop scales it down.
	Data []byte
	// Path is where it came from (project-relative), for the model.
	Path string
	// Width and Height are its size in pixels once the loop has fitted
	// it to the model; 0 before.
	Width, Height int
}
