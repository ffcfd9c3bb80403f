package tts

// geminiVoices are the prebuilt voices of Gemini's speech models, with the
// character the documentation gives each.
var geminiVoices = [...][2]string{
	{"Zephyr", "Bright"}, {"Puck", "Upbeat"}, {"Charon", "Informative"},
	{"Kore", "Firm"}, {"Fenrir", "Excitable"}, {"Leda", "Youthful"},
	{"Orus", "Firm"}, {"Aoede", "Breezy"}, {"Callirrhoe", "Easy-going"},
	{"Autonoe", "Bright"}, {"Enceladus", "Breathy"}, {"Iapetus", "Clear"},
	{"Umbriel", "Easy-going"}, {"Algieba", "Smooth"}, {"Despina", "Smooth"},
	{"Erinome", "Clear"}, {"Algenib", "Gravelly"}, {"Rasalgethi", "Informative"},
	{"Laomedeia", "Upbeat"}, {"Achernar", "Soft"}, {"Alnilam", "Firm"},
	{"Schedar", "Even"}, {"Gacrux", "Mature"}, {"Pulcherrima", "Forward"},
	{"Achird", "Friendly"}, {"Zubenelgenubi", "Casual"}, {"Vindemiatrix", "Gentle"},
	{"Sadachbia", "Lively"}, {"Sadaltager", "Knowledgeable"}, {"Sulafat", "Warm"},
}

func geminiVoiceNames() []string {
	names := make([]string, len(geminiVoices))
	for i, v := range geminiVoices {
		names[i] = v[0]
	}
	return names
}
