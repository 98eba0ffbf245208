vim9script
# Biki for Vim 9. Talks to `biki serve` (JSON-RPC 2.0 with LSP framing, docs/protocol.md) on a
# job channel in Vim's own 'lsp' mode, which does the framing and the request ids.

# The running server: {job, channel}, empty until first use.
var server: dict<any> = {}
# Every topic, kept for :BikiQuiz <Tab>; emptied when the server reloads its packs.
var topics: list<dict<any>> = []
# The quiz under way: {session, title, buf, question, progress}, empty when there is none.
var quiz: dict<any> = {}

def Error(message: string)
  echohl ErrorMsg
  echomsg 'biki: ' .. message
  echohl None
enddef

def OnMessage(channel: channel, message: dict<any>)
  const method = get(message, 'method', '')
  if method == 'biki/packsChanged'
    topics = []
  elseif method == 'window/showMessage'
    echomsg 'biki: ' .. message.params.message
  endif
enddef

# The channel to a running server, started on first use; null when it cannot start.
def Channel(): any
  if has_key(server, 'job') && job_status(server.job) == 'run'
    return server.channel
  endif
  const command = get(g:, 'biki_command', ['biki', 'serve'])
  if !executable(command[0])
    Error($'cannot run "{command[0]}": it is not on your PATH. Install Biki (:help biki-install) or set g:biki_command')
    return null
  endif
  # The server logs to stderr; unread, a full pipe would stall it.
  const job = job_start(command, {
    in_mode: 'lsp', out_mode: 'lsp', err_io: 'null',
    callback: OnMessage,
  })
  if job_status(job) != 'run'
    Error($'could not start {join(command)}')
    return null
  endif
  const channel = job_getchannel(job)
  const init = ch_evalexpr(channel, {method: 'initialize', params: {
    processId: getpid(), rootUri: null, capabilities: {},
    clientInfo: {name: 'biki.vim'},
  }}, {timeout: 20000})
  if !has_key(init, 'result')
    Error($'{join(command)} did not answer initialize')
    job_stop(job)
    return null
  endif
  ch_sendexpr(channel, {method: 'initialized', params: {}})
  server = {job: job, channel: channel}
  return channel
enddef

# The server's words, with this plugin's commands where the protocol would name its methods.
def Explain(error: dict<any>): string
  var message = substitute(get(error, 'message', string(error)), '^"\(topicId\|sessionId\)": ', '', '')
  if message =~ 'no topic'
    message ..= ' :BikiTopics lists them.'
  endif
  return message
enddef

# Sends a request and waits for its result; null (with the reason shown) when it failed.
# Waiting is fine: every answer the quiz needs comes back in milliseconds, and a plugin topic
# that takes longer is bounded by the server's own time limit per question.
def Request(method: string, params: dict<any>): any
  const channel = Channel()
  if type(channel) != v:t_channel
    return null
  endif
  const response = ch_evalexpr(channel, {method: method, params: params}, {timeout: 60000})
  if has_key(response, 'error')
    Error(Explain(response.error))
    return null
  elseif !has_key(response, 'result')
    Error($'no answer to {method}')
    return null
  endif
  return response.result
enddef

def TopicList(): list<dict<any>>
  if empty(topics)
    const result = Request('biki/topics', {})
    if result != null
      topics = result.topics
    endif
  endif
  return topics
enddef

export def CompleteTopics(lead: string, line: string, position: number): list<string>
  return TopicList()->mapnew((_, topic) => topic.id)->filter((_, id) => stridx(id, lead) == 0)
enddef

def TitleOf(id: string): string
  for topic in TopicList()
    if topic.id == id
      return topic.title
    endif
  endfor
  return id
enddef

# Shows `lines` in the scratch buffer `name`, in its window when it has one.
def Scratch(name: string, lines: list<string>)
  const buf = bufnr(name)
  if buf > 0 && bufwinid(buf) > 0
    win_gotoid(bufwinid(buf))
  else
    botright new
    setlocal buftype=nofile bufhidden=wipe noswapfile nobuflisted
    silent execute 'file ' .. fnameescape(name)
  endif
  setlocal modifiable
  setline(1, lines)
  if line('$') > len(lines)
    deletebufline('%', len(lines) + 1, '$')
  endif
  setlocal nomodifiable
enddef

export def Topics()
  const list = TopicList()
  if empty(list)
    return
  endif
  const width = max(list->mapnew((_, topic) => strdisplaywidth(topic.id)))
  Scratch('biki://topics', list->mapnew((_, topic) =>
    printf('%-*s  %s  (%s)', width, topic.id, topic.title, join(topic.skills, ', '))))
  # The list is this plugin's own buffer: Enter there means nothing else.
  nnoremap <buffer> <silent> <CR> <ScriptCmd>Quiz(matchstr(getline('.'), '^\S\+'))<CR>
enddef

# Why the thing takes its counter (which-counter): a line for each usual counter, none else.
def CounterUses(expected: dict<any>): list<string>
  return get(expected, 'counterUses', [])->mapnew((_, use) => $'    {use}.')
enddef

def ExpectedText(expected: dict<any>): string
  return $'{expected.answer}  {expected.kanji}  {join(get(expected, "readings", []), " / ")}'
enddef

def ProgressText(progress: dict<any>): string
  const number = progress.completed + 1
  if has_key(progress, 'round')
    return $'[round {progress.round.number}: {progress.round.position}/{progress.round.questions}]'
  endif
  if has_key(progress, 'questionLimit')
    return $'[{min([number, progress.questionLimit])}/{progress.questionLimit}]'
  endif
  return $'[{number}]'
enddef

def Label(question: dict<any>): string
  if question.skill == 'kana'
    return 'reading in kana'
  elseif question.skill == 'counter'
    return 'count with its counter: 5本 or ごほん'
  elseif get(question, 'postfix', '') != ''
    return $'number of {question.postfix}'
  endif
  return 'number in digits'
enddef

# Adds lines to the quiz transcript, above the prompt line, which stays last.
def Say(lines: list<string>)
  if !bufexists(quiz.buf)
    return
  endif
  appendbufline(quiz.buf, getbufinfo(quiz.buf)[0].linecount - 1, lines)
  const win = bufwinid(quiz.buf)
  if win > 0
    win_execute(win, 'normal! G')
  endif
enddef

# `biki say …` by the biki the server runs, with g:biki_voice, g:biki_rate and g:biki_pitch
# when set.
def SayCommand(arguments: list<string>): list<string>
  var command = [get(g:, 'biki_command', ['biki', 'serve'])[0], 'say'] + arguments
  if Voice() != ''
    command += ['--voice', Voice()]
  endif
  for [setting, option] in [['biki_rate', '--rate'], ['biki_pitch', '--pitch']]
    if Setting(setting) != ''
      command += [option, Setting(setting)]
    endif
  endfor
  return command
enddef

# g:biki_voice as biki takes it: a name as it is, a file name ('~/voices/x.htsvoice') made
# whole, since no shell stands between Vim's job and biki to expand the '~'.
def Voice(): string
  const name = Setting('biki_voice')
  return name =~ '^\~\|/' ? fnamemodify(name, ':p') : name
enddef

# A setting as text (0.8 as '0.8'), or '' when it is not set.
def Setting(name: string): string
  const value = get(g:, name, '')
  return type(value) == v:t_string ? value : string(value)
enddef

# The session's `speech`, so the server makes the audio ahead as `biki say` will say it.
def SpeechParams(): dict<any>
  var speech: dict<any> = {}
  if Voice() != ''
    speech.voice = Voice()
  endif
  for [setting, field] in [['biki_rate', 'rate'], ['biki_pitch', 'pitch']]
    if Setting(setting) != ''
      speech[field] = str2float(Setting(setting))
    endif
  endfor
  return speech
enddef

var speech_engine: dict<any> = {}

# What `biki say --engine` says (which engine speaks, or what to install), asked once.
export def SpeechEngine(): dict<any>
  if empty(speech_engine)
    const line = trim(system(join(map(SayCommand(['--engine']), (_, word) => shellescape(word)))))
    speech_engine = {line: line, speaks: v:shell_error == 0}
  endif
  return speech_engine
enddef

def Ask()
  const question = quiz.question
  const audible = has_key(question, 'speech') && get(g:, 'biki_speak', 1)
  # A listening question's prompt is its reading, the very answer: shown only when it cannot be
  # heard, so it can still be answered.
  const spoken = audible && SpeechEngine().speaks
  const shown = spoken ? '🔊 listen (:BikiReplay: hear it again)' : get(question, 'prefix', '') .. question.prompt
  Say([$'{ProgressText(quiz.progress)}  {shown}    ({Label(question)}; empty: skip)'])
  if spoken
    Replay(false)
  elseif audible && !get(quiz, 'told_no_speech', false)
    quiz.told_no_speech = true
    Say([$'  (no audio: {SpeechEngine().line})'])
  endif
enddef

# :BikiReplay: says the listening question being asked again, counting no answer.
export def Replay(fromCommand: bool = true)
  const question = empty(quiz) ? {} : quiz.question
  if !has_key(question, 'speech')
    Error('no question is being spoken; :BikiQuiz with g:biki_skill = "listening" asks one')
    return
  endif
  if !get(g:, 'biki_speak', 1) || !SpeechEngine().speaks
    Error('no audio: ' .. (get(g:, 'biki_speak', 1) ? SpeechEngine().line : 'g:biki_speak is off'))
    return
  endif
  # Open JTalk is given the text too, which it accents as it is said.
  job_start(SayCommand([question.speech, get(question, 'speechText', question.speech)]), {out_io: 'null', err_io: 'null'})
  if fromCommand && bufnr() == quiz.buf
    startinsert!
  endif
enddef

def Finish(summary: dict<any>)
  var lines = [
    '',
    $'{quiz.title} — finished',
    $'  Correct: {summary.correct} of {summary.questions} ({summary.correctFirstTry} on the first try)',
    $'  Wrong attempts: {summary.incorrectAttempts}   Skipped: {summary.skipped}',
    printf('  Average: %.1f s a question', summary.averageSeconds),
  ]
  if has_key(summary, 'rounds')
    lines += [$'  Rounds: {summary.rounds}' .. (summary.endReason == 'allRight' ? ': each right at the first try' : '')]
  endif
  if !empty(summary.missed)
    lines += ['', '  To practise again:']
    lines += summary.missed->mapnew((_, missed) => $'    {missed.prompt} → {ExpectedText(missed.expected)}')
  endif
  Say(lines)
  # A plain buffer now: the transcript stays to be read, and typing no longer answers.
  setbufvar(quiz.buf, '&buftype', 'nofile')
  deletebufline(quiz.buf, '$')
  setbufvar(quiz.buf, '&modifiable', 0)
  if bufnr() == quiz.buf
    stopinsert
  endif
  quiz = {}
enddef

# What every answer, skip or end gets back: the next question, or the summary.
def After(result: dict<any>)
  quiz.progress = result.progress
  if get(result, 'finished', false)
    Finish(result.summary)
  else
    if has_key(result, 'question')
      quiz.question = result.question
    endif
    Ask()
  endif
enddef

def OnAnswer(text: string)
  if empty(quiz)
    return
  endif
  const answer = trim(text)
  if answer == ''
    Skip(false)
    return
  endif
  const result = Request('biki/answer', {sessionId: quiz.session, answer: answer})
  if result == null
    return
  endif
  if result.verdict == 'correct'
    const usual = !has_key(result, 'standard') ? []
      : get(result, 'uncommon', false) ? [$'    (accepted, though uncommon: the usual reading is {result.standard})']
      : [$'    (the standard reading is {result.standard})']
    Say(['  ✓ ' .. ExpectedText(result.expected)] + usual + CounterUses(result.expected))
  elseif result.verdict == 'incorrect'
    Say([$'  ✗ not {answer}: try again, or an empty line for the answer'] + (has_key(result, 'hint') ? ['    ' .. result.hint] : []))
  else
    Say(['  time is up'])
  endif
  if result.verdict == 'incorrect'
    # The question stays open and its answer hidden until it is answered or skipped.
    return
  endif
  After(result)
enddef

# :BikiSkip, or an empty answer at the prompt. From the command (typed in Normal mode in the
# quiz window), the learner is put back at the prompt for the next question, as a quiz starts.
export def Skip(fromCommand: bool = true)
  if empty(quiz)
    Error('no quiz under way; :BikiQuiz starts one')
    return
  endif
  const result = Request('biki/skip', {sessionId: quiz.session})
  if result != null
    if has_key(result, 'expected')
      Say(['  → ' .. ExpectedText(result.expected)] + CounterUses(result.expected))
    endif
    After(result)
    if fromCommand && !empty(quiz) && bufnr() == quiz.buf
      startinsert!
    endif
  endif
enddef

def End()
  if empty(quiz)
    return
  endif
  const result = Request('biki/endSession', {sessionId: quiz.session})
  if result != null
    Finish(result.summary)
  else
    quiz = {}
  endif
enddef

def Start(id: string, count: number)
  StartSession({topicId: id, mode: {kind: 'questionLimit', limit: count}}, TitleOf(id), $'{TitleOf(id)}: {count} questions')
enddef

# A session from `params`, in the quiz window under `title`; `intro` opens its transcript.
def StartSession(given: dict<any>, title: string, intro: string)
  var params = copy(given)
  if get(g:, 'biki_skill', '') != ''
    params.skill = g:biki_skill
  endif
  if has_key(g:, 'biki_seed')
    params.seed = g:biki_seed
  endif
  if get(g:, 'biki_strict', 0)
    params.strict = true
  endif
  if !empty(SpeechParams())
    params.speech = SpeechParams()
  endif
  const result = Request('biki/startSession', params)
  if result == null
    return
  endif
  if !empty(quiz)
    End()
  endif
  const buf = bufnr('biki://quiz')
  if buf > 0 && bufwinid(buf) > 0
    win_gotoid(bufwinid(buf))
    enew
  else
    botright new
  endif
  setlocal buftype=prompt bufhidden=wipe noswapfile nobuflisted
  silent execute 'file ' .. fnameescape('biki://quiz')
  quiz = {session: result.sessionId, title: title, buf: bufnr(), question: result.question, progress: result.progress}
  prompt_setprompt(quiz.buf, '> ')
  prompt_setcallback(quiz.buf, OnAnswer)
  # CTRL-C at the prompt ends the quiz with its summary.
  prompt_setinterrupt(quiz.buf, End)
  autocmd BufWipeout <buffer> End()
  Say([intro])
  Ask()
  startinsert
enddef

# :BikiMissed [topic]: what the last quiz missed, asked again in rounds until each question is
# right at the first try.
export def Missed(topic: string = '')
  var params: dict<any> = {mode: {kind: 'missed'}}
  if topic != ''
    params.topicId = topic
  endif
  const title = topic == '' ? 'Missed questions' : $'Missed in {TitleOf(topic)}'
  StartSession(params, title, $'{title}: asked again in rounds until each is right at the first try')
enddef

# :BikiQuiz [topic] [count]: a quiz on a topic; with no topic, the list to choose one from.
export def Quiz(...args: list<string>)
  if empty(args) || args[0] == ''
    Topics()
    return
  endif
  const count = len(args) > 1 ? str2nr(args[1]) : get(g:, 'biki_questions', 10)
  if count < 1
    Error($'the number of questions must be 1 or more, not {args[1]}')
    return
  endif
  Start(args[0], count)
enddef

def Percent(value: any): string
  return value == null ? '-' : printf('%d%%', float2nr(round(value * 100)))
enddef

export def Stats()
  const result = Request('biki/stats', {})
  if result == null
    return
  endif
  if empty(result.topics)
    Scratch('biki://stats', ['No answers recorded yet.'])
    return
  endif
  var lines = [printf('%-28s %7s %7s %7s %8s', 'topic', 'answers', 'correct', 'skipped', 'accuracy')]
  lines += result.topics->mapnew((_, topic) => printf('%-28s %7d %7d %7d %8s',
    topic.topicId, topic.answers, topic.correct, topic.skipped, Percent(topic.accuracy)))
  const forms = get(result, 'forms', [])
  if !empty(forms)
    lines += ['', 'Forms, weakest first (FSRS: recall a week from now):']
    lines += forms[: 14]->mapnew((_, form) => printf('  %-6s %4s  %-16s %-9s %d reviews, %d missed',
      get(form, 'state', ''), Percent(get(form, 'recallInAWeek', form.recall)), form.form, form.skill, form.reviews, form.lapses))
    if len(forms) > 15
      lines += [$'  … and {len(forms) - 15} more']
    endif
  endif
  Scratch('biki://stats', lines)
enddef

# A polite goodbye, so the server exits as asked rather than by a signal.
def Shutdown()
  if has_key(server, 'job') && job_status(server.job) == 'run'
    ch_evalexpr(server.channel, {method: 'shutdown'}, {timeout: 1000})
    ch_sendexpr(server.channel, {method: 'exit'})
  endif
enddef

augroup biki
  autocmd!
  autocmd VimLeavePre * Shutdown()
augroup END
