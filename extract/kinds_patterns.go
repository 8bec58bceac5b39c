package extract

// Patterns that tell what a step does. They are about the language of plans,
// ledgers, tool calls and answers as frameworks write them (AutoGen, AG2,
// Magentic-One, CrewAI, LangGraph, ReAct prompts), never about one
// benchmark's agents or tasks.
var (
	// A plan: a heading or sentence that introduces one, or a heading or
	// field of the specs a software team lays its work out in (a product
	// manager's requirements, an architect's approach, a task list).
	planRe = pattern(`(?:^|\n)[ \t]{0,3}#{1,6}[ \t]{1,4}(?:[\w-]{1,20}\s{1,2}){0,2}plan\b[^\n]{0,60}|(?:^|\n)[ \t>*#-]{0,8}(?:(?:initial|new|updated|revised|overall|high[- ]level|step[- ]by[- ]step|action|my|our|the)\s{1,2}){0,2}plan(?:\s{1,2}(?:for|to)\s{1,2}[^\n:]{0,60})?\s{0,2}:|\bhere(?:'s| is) (?:the|my|our|a|an) (?:(?:updated|revised|new|detailed|step-by-step)\s)?(?:plan|approach|strategy)\b|\bwe are working to address the following user request\b|\b(?:plan|approach|strategy|steps) (?:for|to) (?:solv|address|complet|answer|tackl|approach)\w{0,4}\b[^\n]{0,60}:|(?:^|\n)[ \t>*-]{0,8}(?:approach|strategy|(?:research\s{1,2})?brief|sub-?(?:questions|queries|tasks))\s{0,2}:|(?:^|\n)[ \t]{0,3}#{1,6}[ \t]{1,4}(?:original requirements|requirements|requirement pool|requirement analysis|implementation approach|design|logic analysis|task list)[ \t]{0,4}(?:\n|$)|"(?:original requirements|requirement pool|requirement analysis|implementation approach|logic analysis|task list)"\s{0,3}:`, ci)
	// Markers that a plan replaces an earlier one.
	replanMarkerRe = pattern(`\b(?:new|updated|revised|adjusted|modified|alternative|different) (?:plan|approach|strategy)\b|\bre-?plan(?:ning|ned)?\b|\bchange (?:of )?(?:plan|strategy|approach)\b`, ci)

	// ReAct / CrewAI actions, and function calls written as text or JSON.
	actionLineRe = pattern(`(?m)^[ \t*]{0,4}Action(?:[ \t]{1,2}\d{1,3})?(?: Input)?\s{0,2}:\s{0,2}(?<a>[^\n]{1,300})`, 0)
	// AgentBench's household agents write their command after "ACTION:".
	envActionRe = pattern(`(?m)^[ \t*]{0,4}ACTION\s{0,2}:\s{0,2}(?<a>[^\n]{1,300})`, 0)
	// A web agent writes its one action on a page as a fenced line of a
	// verb and bracketed arguments (WebArena's "```click [1234]```",
	// "```type [87] [blue jacket] [1]```") or as a call in an action tag
	// (BrowserGym's "<action>click('a51')</action>").
	pageActionRe = pattern("```"+`[ \t]{0,2}(?<a>[a-z][a-z_]{1,19}(?:[ \t]{1,2}\[[^\]\n]{0,300}\]){0,3})[ \t]{0,2}`+"```"+`|<action>\s{0,4}(?<a>[a-z][a-z_]{1,19}\([^\n]{0,300}\))\s{0,4}</action>`, 0)
	// A text environment's answer that it did not carry a command out:
	// ALFWorld's "Nothing happens.", Inform's and TextWorld's parser
	// ("I don't understand that", "You can't see any such thing", "That's
	// not a verb I recognise"), ScienceWorld's "No known action matches
	// that input."
	envRefusalRe   = pattern(`\A\s{0,4}(?:Nothing (?:happens|happened)\b|I (?:don't|didn't|do not|did not) (?:understand|know the word)\b|You (?:can't|cannot|can not|don't see|do not see)\b|That's not (?:a verb|something) (?:I|you)\b|No known action matches\b|That doesn't seem to\b|There is no\b|I only understood you as far as\b)`, 0)
	functionCallRe = pattern(`"(?:name|function|tool)"\s{0,3}:\s{0,3}"(?<name>[\w.-]{1,80})"\s{0,3},\s{0,3}"(?:arguments|args|parameters|input)"\s{0,3}:`, 0)
	callingToolRe  = pattern(`\b(?:calling|invoking|using) (?:the )?(?:tool|function)\s{1,2}[\x60'"]?(?<name>[\w.-]{1,80})`, ci)

	// Tool output as executors and tools print it.
	toolOutputRe = pattern(`(?m)^[ \t]{0,4}(?:exit[ _-]?code\s{0,2}[:=]|code output\s{0,2}:|stdout\s{0,2}:|stderr\s{0,2}:|observation(?:[ \t]{1,2}\d{1,3})?\s{0,2}:|tool (?:output|result|response)\s{0,2}:|execution (?:result|output)\s{0,2}:|output\s{0,2}:\s{0,2}$)|\bthe script ran\b|\bthere is no code (?:from the last \d{1,3} messages? )?for me to execute\b|\bhere is a screenshot of\b|\bthe viewport shows\b|\bviewport position\s{0,2}:|\bautomatic ocr of the page\b|\bthe following (?:metadata|text) was extracted\b|^\s{0,4}Traceback \(most recent call last\)`, ci)
	// The first-person report of a tool action: "I clicked 'Details'."
	browserActionRe = pattern(`^\s{0,4}(?<a>I (?:typed|clicked|scrolled|navigated|visited|opened|searched|hovered|pressed|selected|entered|went|downloaded|uploaded|ran|executed)\b[^\n]{0,300})`, 0)

	// Explicit final answers, including the \boxed{} of math solvers, the
	// <answer> or <solution> tags a harness asks the answer in (OpenHands'
	// GAIA runs tag their finish message's answer so), a
	// ReAct agent's Finish[…] action and a web agent's closing action
	// (WebArena's "```stop [answer]```", also after "ACTION:", and
	// BrowserGym's "<action>send_msg_to_user('answer')</action>"), and a
	// JSON chat agent's closing action blob ({"action": "Final Answer",
	// "action_input": "answer"}).
	finalAnswerRe = pattern(`\bFinish\[(?<a>[^\]\n]{1,500})\]|\bFINAL[ _]ANSWER\s{0,2}[:：]\s{0,4}(?<a>[^\n]{1,500})|\b(?:the |my |our )?final answer(?: (?:of|to|for) (?:the|this|our) [\w-]{1,20})? (?:is|would be|will be)\s{0,2}:?\s{0,4}(?<a>[^\n]{1,500})|(?m)^[ \t>*#-]{0,8}\**final (?:solution|result)\**\s{0,2}[:：]\**[ \t]{0,4}(?<a>[^\s*][^\n]{0,499})|\\boxed\{(?<a>[^{}\n]{1,200})\}|<(?:answer|solution)>\s{0,4}(?<a>[^<\n]{1,500})\s{0,4}</(?:answer|solution)>|(?:`+"```"+`|(?m)^[ \t*]{0,4}ACTION\s{0,2}:)[ \t]{0,2}stop[ \t]{1,2}\[(?<a>[^\]\n]{1,500})\]|<action>\s{0,4}send_msg_to_user\(\s{0,2}(?:'(?<a>[^'\n]{1,500})'|"(?<a>[^"\n]{1,500})")\s{0,2}\)\s{0,4}</action>|"action"\s{0,4}:\s{0,4}"final answer"\s{0,4},\s{0,8}"action_input"\s{0,4}:\s{0,4}"(?<a>[^"\n]{1,500})"`, ci)
	// An answer given as the action that ends the run (a system prompt's
	// or a task's example of the action is no answer, and
	// answeringAction reads none there): AgentBench's "Act:
	// answer(4)", AppWorld's apis.supervisor.complete_task(answer=9), a
	// smolagents agent's final_answer("...") in its code, its
	// final_answer tool called with {"answer": ...} or its action blob
	// naming final_answer, and browser-use's done action ({"done":
	// {"text": "..."}}). A value the call names by a variable
	// (complete_task(answer=total)) is no answer the step states. A
	// quoted value is as the log wrote it: JSON's escapes are undone
	// by answeringAction. SWE-agent's submit given a value (EnIGMA's
	// "submit 'flag{...}'", on a line of its own as its actions are)
	// answers too; its bare submit hands in a patch, no value. So does
	// a submission written as a call on a line of its own (InterCode's
	// and AIOpsLab's submit(...), a flag or a list of components): a
	// literal, quoted, a list, a figure or a flag, not a variable or an
	// expression of the code around it (submit(result)).
	answerActionRe = pattern(`(?m)^[ \t]{0,4}submit[ \t]{1,4}(?:'(?<a>[^'\n]{1,500})'|"(?<a>[^"\n]{1,500})")[ \t]{0,4}$|(?m)^[ \t]{0,4}submit(?:_flag|_answer)?\((?<a>(?:["'\[\d-]|[A-Za-z][A-Za-z0-9]{0,19}\{)[^\n]{0,499})\)[ \t]{0,2}$|(?m)^[ \t>*]{0,4}Act\s{0,2}:[ \t]{0,2}answer\((?<a>[^\n]{1,500})\)[ \t.]{0,2}$|\bcomplete_task\(\s{0,2}answer\s{0,2}=\s{0,2}(?:"(?<a>[^"\n]{1,500})"|'(?<a>[^'\n]{1,500})'|(?<a>-?\d[\d,.]{0,40}))\s{0,2}\)|\bfinal_answer\(\s{0,2}(?:answer\s{0,2}=\s{0,2})?(?:"(?<a>(?:[^"\\\n]|\\.){1,500})"|'(?<a>[^'\n]{1,500})'|(?<a>-?\d[\d,.]{0,40})|\{\s{0,2}"answer"\s{0,2}:\s{0,2}(?:"(?<a>(?:[^"\\\n]|\\.){1,500})"|(?<a>-?\d[\d,.]{0,40}))\s{0,2}\})\s{0,2}\)|"name"\s{0,3}:\s{0,3}"final_answer"\s{0,3},\s{0,3}"arguments"\s{0,3}:\s{0,3}(?:\{\s{0,3}"answer"\s{0,3}:\s{0,3})?(?:"(?<a>(?:[^"\\\n]|\\.){1,500})"|(?<a>-?\d[\d,.]{0,40}))|"done"\s{0,2}:\s{0,2}\{(?:\s{0,2}"success"\s{0,2}:\s{0,2}(?:true|false)\s{0,2},)?\s{0,2}"text"\s{0,2}:\s{0,2}"(?<a>(?:[^"\\\n]|\\.){1,500})"`, 0)
	// Answers put forward in passing.
	answerRe = pattern(`\b(?:the|our|my) (?:correct |best |likely |most likely )?(?:answer|solution|result) (?:is|would be|appears to be|seems to be)\s{0,2}:?\s{0,4}(?<a>(?:[^.!?\n]|\.(?=\d)){1,300})|(?m)^[ \t>*#-]{0,8}\**(?:answer|result|solution|conclusion)\**\s{0,2}[:：]\**\s{0,4}(?<a>[^\n]{1,300})|\b(?:therefore|thus|hence|in conclusion|to conclude),? the (?:\w+ ){0,5}(?:is|are|was|were|equals|would be)\s{1,2}(?<a>(?:[^.!?\n]|\.(?=\d)){1,300})`, ci)

	// The close of a role-playing assistant's reply that hands the turn
	// back for its instructor's next instruction (CAMEL's "Next
	// request."): the reply answered that instruction, a part of the task.
	nextRequestRe = pattern(`\bnext request\W{0,4}\z`, ci)

	// Termination: a TERMINATE on its own line or at the very end (not the
	// quoted word in an executor's "reply me only with "TERMINATE""), and the
	// stop reasons orchestrators log; CAMEL's AI user closes a role-play
	// with <CAMEL_TASK_DONE>; a supervisor that routes to FINISH (as
	// LangGraph's supervisors do) ends the run with that word alone.
	terminateRe = pattern(`(?m)^[ \t*]{0,4}TERMINATE[ \t.!*]{0,4}$|\bTERMINATE\s{0,4}\z|\A[ \t*]{0,4}FINISH[ \t.!*]{0,4}\z|<CAMEL_TASK_DONE>|\b(?:request satisfied|max(?:imum)? (?:rounds|turns|time|steps|iterations)(?: \(\d{1,6}s?\))? (?:reached|exceeded)|no agent selected|terminating|conversation (?:ended|terminated|is over))\b`, ci)

	// Labelled reasoning, and orchestrator thoughts that pick a speaker.
	thoughtRe     = pattern(`(?m)^[ \t*#>-]{0,8}(?:thought|thinking|reasoning|reflection)\**\s{0,2}:`, ci)
	nextSpeakerRe = pattern(`\bnext[ _]speaker\W{0,4}(?:is\s{1,2}|should be\s{1,2}|:\s{0,2})?[\x60'"*]{0,2}(?<name>[\p{L}][\w.-]{0,60})`, ci)
)

// Words around an agent's name that address it: "@Coder", "pass this to the
// Coder", "ask Coder", "Coder, please". They are matched on the few bytes
// before and after each occurrence of a known agent's name.
var (
	addressBeforeRe = pattern(`(?:@|\b(?:pass|hand|send|forward|delegate|give|turn|assign)(?:ing|s|ed)?\b[^.\n]{0,60}?\bto\s{1,2}(?:the\s{1,2})?|\b(?:over to|hand ?off to|transfer(?:ring)? to|ask(?:ing)?|request(?:ing)?|instruct(?:ing)?|let|dear|hey)\s{1,2}(?:the\s{1,2})?)[\x60'"*]{0,2}\z`, ci)
	addressAfterRe  = pattern(`\A[\x60'"*]{0,2}\s{0,2}[,:]\s{1,2}(?:please|could you|can you|would you|will you|kindly|go ahead|your turn|take over|now)\b`, ci)
)

// turnLimitRe finds a harness's notice that a run was stopped at its limit
// of turns, rounds, steps, iterations or interactions: AG2's "Maximum turns
// (10) reached", Magentic-One's "Max rounds (30) reached.", OpenManus'
// "Terminated: Reached max steps (20)", smolagents' "Reached max steps.",
// the OpenAI Agents SDK's "Max turns (10) exceeded", LangGraph's
// "Recursion limit of 25 reached", LangChain's and CrewAI's "Agent stopped
// due to iteration limit or time limit.", and the like ("Maximum number of
// interactions (12) reached").
var turnLimitRe = pattern(`\b(?:max(?:imum)?(?:[ _]number[ _]of)?[ _](?:turns|rounds|steps|iterations|interactions|calls)(?:\s{0,2}\(\d{1,6}\))?\s{1,2}(?:has\s|have\s)?(?:been\s)?(?:reached|exceeded|hit)|reached\s(?:the\s)?max(?:imum)?(?:[ _]number[ _]of)?[ _](?:turns|rounds|steps|iterations|interactions|calls)|recursion\slimit\sof\s\d{1,6}\sreached|(?:agent\s)?stopped\sdue\sto\s(?:max(?:imum)?\s)?iteration\slimit|(?:turn|round|step|iteration|interaction)\slimit\s(?:\(\d{1,6}\)\s)?(?:reached|exceeded|hit))\b`, ci)

// unreachableRe finds a network failure as programs print one: Python's
// requests and urllib3, curl, Node's error codes, getaddrinfo, pip
// finding no versions of a package it could not fetch.
var unreachableRe = pattern(`\b(?:Max retries exceeded|NewConnectionError|ConnectTimeout(?:Error)?|ReadTimeout(?:Error)?|ConnectionRefusedError|ConnectionResetError|Connection (?:refused|reset by peer|timed out)|Temporary failure in name resolution|Name or service not known|nodename nor servname provided|getaddrinfo (?:failed|ENOTFOUND|EAI_AGAIN)|Could not resolve host|Failed to connect to|Network is unreachable|No route to host|Read timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN)|\(from versions: none\)`, 0)

// serviceFaultRe finds a failure of the service a call reached, as a
// server, a gateway or a client library reports one: a 5xx status or its
// reason phrase, a rate limit (429, "Too Many Requests", an SDK's
// RateLimitError), a service overloaded or unavailable, a request or an
// upstream service that timed out, a deadline exceeded; a status under a
// JSON or a Python mapping's quoted key ("code": 503) is one. A 4xx other
// than 429 names the request's own fault and is none of these, and so is
// a timeout named as a request's parameter ("'timeout' must be an
// integer", "parameter timeout must be positive") or said not to be one
// ("no timeout", "without a timeout").
var serviceFaultRe = pattern(`\b(?:(?:HTTP(?:/\d(?:\.\d)?)?|status(?:[ _]code)?|error(?:[ _]code)?|code)["']?\s{0,2}[:=]?\s{0,2}(?:429|5\d\d)\b|(?:429|5\d\d)\s{1,2}(?:-\s{0,2})?(?:Too Many Requests|Internal Server Error|Bad Gateway|Service (?:Temporarily )?Unavailable|Gateway Time-?out|Server Error)|Internal Server Error|Bad Gateway|Service (?:Temporarily )?Unavailable|Gateway Time-?out|temporarily unavailable|Too Many Requests|RateLimit(?:Error|Exceeded)|rate[ _-]?limit(?:ed|\s{1,2}(?:exceeded|reached|hit))|(?:server|service|API|model|engine|system)\s{1,2}(?:is\s{1,2}|was\s{1,2})?(?:currently\s{1,2})?overloaded|overloaded_error|(?:request|upstream|service|server|gateway|API|endpoint|remote|backend|provider)\b[^\n.]{0,40}?(?<!['"])(?<!\b(?:no|not|without)\s{1,2}(?:an?\s{1,2})?)\btimed?[ _-]?out\b(?!['"]?\s{1,2}(?:must|should|param(?:eter)?|arg(?:ument)?|field|value|setting|option|is\s{1,2}(?:required|invalid|not)))|timed?[ _-]?out after \d{1,6}(?:\.\d{1,3})?\s{0,2}(?:m?s|secs?|seconds?|min(?:ute)?s?)|deadline exceeded)\b`, ci)
