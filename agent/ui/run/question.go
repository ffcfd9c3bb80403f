package run

import (
	"context"
	"errors"
	"fmt"
	stdio "io"
	"strconv"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/todo"
)

// AskUser implements tools.UserAsker on the terminal of the approval
// questions (ask_user): the question and its numbered options go to the
// terminal, and the answer is a number (several, for a question that
// takes more than one), the person's own words, or an empty line to
// decline. The end of input declines too.
func (t *TerminalAsker) AskUser(ctx context.Context, q tools.UserQuestion) (tools.UserAnswer, error) {
	fmt.Fprintf(t.out, "\n%s %s\n", t.paint("1", "?"), termtext.Escape(q.Question))
	for i, o := range q.Options {
		fmt.Fprintf(t.out, "  %d  %s\n", i+1, termtext.Escape(o))
	}
	for {
		fmt.Fprint(t.out, questionPrompt(q))
		line, err := t.ReadLine(ctx)
		if err != nil && line == "" {
			fmt.Fprintln(t.out)
			if errors.Is(err, stdio.EOF) {
				return tools.UserAnswer{Declined: true}, nil
			}
			return tools.UserAnswer{}, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return tools.UserAnswer{Declined: true}, nil
		}
		chosen, numbers := choose(q, line)
		switch {
		case !numbers:
			return tools.UserAnswer{Text: line}, nil
		case chosen != nil:
			return tools.UserAnswer{Chosen: chosen}, nil
		}
		fmt.Fprintf(t.out, "please answer with %s\n", choiceWords(q))
	}
}

// questionPrompt is the line that asks for the answer.
func questionPrompt(q tools.UserQuestion) string {
	switch {
	case len(q.Options) == 0:
		return "your answer (Enter alone declines): "
	case q.Multiple:
		return "choose with numbers (1,3), or answer in your own words; Enter alone declines: "
	}
	return "choose a number, or answer in your own words; Enter alone declines: "
}

// choiceWords says which numbers may be given, after a wrong one.
func choiceWords(q tools.UserQuestion) string {
	if q.Multiple {
		return fmt.Sprintf("numbers from 1 to %d, or your own words", len(q.Options))
	}
	return fmt.Sprintf("one number from 1 to %d, or your own words", len(q.Options))
}

// choose reads line as option numbers ("2", "1,3", "1 3"): numbers is
// false when it is not a list of numbers at all (the person's own
// words), and chosen nil when the numbers do not fit the question.
func choose(q tools.UserQuestion, line string) (chosen []string, numbers bool) {
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' })
	seen := map[int]bool{}
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, false
		}
		if n < 1 || n > len(q.Options) {
			return nil, len(q.Options) > 0
		}
		if !seen[n] {
			seen[n] = true
			chosen = append(chosen, q.Options[n-1])
		}
	}
	if len(q.Options) == 0 {
		return nil, false // a question without options takes a number as words
	}
	if len(chosen) > 1 && !q.Multiple {
		return nil, true
	}
	return chosen, true
}

// printTodos writes the model's plan to w, one step a line after its
// mark, under a line that says how far it is.
func printTodos(w stdio.Writer, items []tools.Todo) {
	fmt.Fprintf(w, "plan (%s):\n", tools.TodoProgress(items))
	for _, t := range items {
		fmt.Fprintf(w, "  %s %s\n", todo.Mark(t.Status), termtext.Escape(t.Text))
	}
}
