"""The quiz's state and scoring, Qt-free: which quiz and question show, the answers, the score, review, progress,
and a round that asks the missed questions again."""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gpumem_gui.teach.quiz import LANGUAGES, Question, Quiz, QuizError

CHOOSER, QUESTION, REVIEW = "chooser", "question", "review"


class Change(enum.IntEnum):
    """What an action did, so that a view redraws no more than it must."""

    NONE = 0  # nothing: a locked question, an index out of range, no quiz open
    SHOWN = 1  # the same page shows something new: a choice marked or answered, another language
    PAGE = 2  # a page was (re)opened: draw it from its top


@dataclass(frozen=True)
class Progress:
    """What the quiz remembers between runs, as plain data a settings store can keep.

    Answers are kept by question id, so editing a quiz file (reordering, adding) keeps what still applies. A restored
    value that no longer fits the quizzes (an unknown language, question or choice) is dropped, never an error.
    """

    language: str = "en"
    open_quiz: str = ""  # the quiz that was open; "" for the chooser
    current: Mapping[str, str] = field(default_factory=dict)  # quiz id -> id of the question last shown
    answers: Mapping[str, Mapping[str, object]] = field(default_factory=dict)  # quiz id -> question id -> choice


@dataclass(frozen=True)
class ReviewItem:
    """One question on the review page."""

    number: int  # 1-based, as the user reads it
    question: Question
    chosen: int | None  # the choice answered, None when skipped
    verdict: str  # "right", "wrong", or "none" when not answered


def _restored_answers(quiz: Quiz, raw: Mapping[str, object]) -> dict[str, int]:
    answers: dict[str, int] = {}
    for question in quiz.questions:
        try:
            index = int(str(raw[question.id]))
        except (KeyError, ValueError):
            continue
        if 0 <= index < len(question.choices):
            answers[question.id] = index
    return answers


class QuizSession:
    """Choose a quiz, answer its questions one at a time (a choice can be marked before it is confirmed), review.

    Every action returns a `Change`; an answered question is locked. `progress()` is what to save, and a session made
    with it comes back at the quiz and question where this one was.

    `start_retry()` (from the review) asks the missed questions again, in a new order, each with a seed for a fresh
    case (`fresh_seed`): while that round runs, the question, answer, score, dot and review accessors speak of the
    round's questions and answers; the first answers, which the score and progress keep, are left as they were.
    """

    def __init__(self, quizzes: Sequence[Quiz], progress: Progress | None = None) -> None:
        progress = progress if progress is not None else Progress()
        self.quizzes = list(quizzes)
        self._by_id = {q.id: q for q in self.quizzes}
        self._language = progress.language if progress.language in LANGUAGES else "en"
        self._answers = {q.id: _restored_answers(q, progress.answers.get(q.id, {})) for q in self.quizzes}
        self._current = {
            quiz_id: question_id
            for quiz_id, question_id in progress.current.items()
            if quiz_id in self._by_id and any(q.id == question_id for q in self._by_id[quiz_id].questions)
        }
        self._quiz: Quiz | None = None
        self._index = 0
        self._selected: int | None = None
        self._page = CHOOSER
        self._predictions: dict[str, dict[str, bool]] = {q.id: {} for q in self.quizzes}  # quiz -> question -> right
        # the retry round: indices into the open quiz's questions (None: no round), its answers, predictions, seeds
        self._round: list[int] | None = None
        self._round_answers: dict[str, int] = {}
        self._round_predictions: dict[str, bool] = {}
        self._round_seeds: dict[str, int] = {}
        # come back where the user left: the quiz that was open, at its question
        if progress.open_quiz in self._by_id:
            self.open_quiz(progress.open_quiz)

    # -- what shows ----------------------------------------------------------------------------------------------

    @property
    def language(self) -> str:
        return self._language

    @property
    def page(self) -> str:
        """Which page shows: CHOOSER, QUESTION or REVIEW."""
        return self._page

    @property
    def current_quiz(self) -> Quiz | None:
        return self._quiz

    @property
    def current_index(self) -> int:
        return self._index

    @property
    def questions(self) -> list[Question]:
        """The questions asked now: the open quiz's, or in a retry round the missed ones in the round's order."""
        if self._quiz is None:
            return []
        if self._round is None:
            return list(self._quiz.questions)
        return [self._quiz.questions[i] for i in self._round]

    @property
    def in_retry(self) -> bool:
        """Is a retry round running?"""
        return self._round is not None

    @property
    def current_question(self) -> Question | None:
        asked = self.questions
        return asked[self._index] if asked else None

    @property
    def is_last(self) -> bool:
        """Is the question shown the last one asked?"""
        return self._quiz is not None and self._index + 1 == len(self.questions)

    @property
    def answers(self) -> dict[str, int]:
        """Question id -> chosen choice index, for the open quiz (in a retry round: the round's answers)."""
        if self._quiz is None:
            return {}
        return dict(self._round_answers) if self._round is not None else dict(self._answers[self._quiz.id])

    @property
    def chosen(self) -> int | None:
        """The answer given to the question shown; None before it is answered."""
        question = self.current_question
        return self.answers.get(question.id) if question is not None else None

    @property
    def selected(self) -> int | None:
        """The choice marked (with a number key) and not yet confirmed."""
        return self._selected

    def prediction(self, question_id: str, quiz_id: str | None = None) -> bool | None:
        """Was the learner's prediction on this question right? None before one is made (kept for this run only)."""
        if quiz_id is None and self._round is not None:
            return self._round_predictions.get(question_id)
        quiz_id = quiz_id if quiz_id is not None else self._quiz.id if self._quiz is not None else ""
        return self._predictions.get(quiz_id, {}).get(question_id)

    def fresh_seed(self, question_id: str) -> int | None:
        """In a retry round, the seed of the question's fresh case (teach/fresh_cases.py); None outside one."""
        return self._round_seeds.get(question_id) if self._round is not None else None

    def missed(self) -> list[Question]:
        """The questions asked now that were answered wrong or whose prediction was wrong, in the order asked."""
        answers = self.answers
        return [
            q
            for q in self.questions
            if (q.id in answers and answers[q.id] != q.answer) or self.prediction(q.id) is False
        ]

    def quiz(self, quiz_id: str) -> Quiz:
        quiz = self._by_id.get(quiz_id)
        if quiz is None:
            known = ", ".join(self._by_id) or "none"
            raise QuizError(f"no quiz with id {quiz_id!r} (known: {known})")
        return quiz

    def answers_of(self, quiz_id: str) -> dict[str, int]:
        return dict(self._answers[quiz_id])

    def score(self, quiz_id: str | None = None) -> int:
        """Right answers in the given (default: the open) quiz; with none given in a retry round, the round's."""
        if quiz_id is None and self._round is not None:
            return sum(1 for q in self.questions if self._round_answers.get(q.id) == q.answer)
        quiz = self._by_id[quiz_id] if quiz_id is not None else self._quiz
        if quiz is None:
            return 0
        answers = self._answers[quiz.id]
        return sum(1 for q in quiz.questions if answers.get(q.id) == q.answer)

    def percent(self) -> int:
        """The open quiz's score in percent of its questions, rounded half up: 1 of 8 is 13 %, not round()'s 12."""
        if self._quiz is None:
            return 0
        total = len(self.questions)
        return (200 * self.score() + total) // (2 * total)

    def unanswered(self) -> int:
        """Questions of the open quiz left unanswered."""
        return len(self.questions) - len(self.answers)

    def chooser_action(self, quiz_id: str) -> str:
        """What the quiz's button on the chooser does: "start", "continue", or "see_results" once all are answered."""
        answered, total = len(self._answers[quiz_id]), len(self._by_id[quiz_id].questions)
        return "start" if answered == 0 else "see_results" if answered == total else "continue"

    def dot_states(self) -> list[str]:
        """Per question of the open quiz: "todo", "right" or "wrong"."""
        answers = self.answers
        return [
            "todo" if q.id not in answers else "right" if answers[q.id] == q.answer else "wrong" for q in self.questions
        ]

    def choice_states(self) -> list[str]:
        """Per choice of the question shown: "idle" or "selected" before it is answered; after, "right" for the
        right one, "wrong" for a wrong one chosen, "dim" for the rest."""
        question = self.current_question
        if question is None:
            return []
        chosen = self.chosen
        states = []
        for i in range(len(question.choices)):
            if chosen is None:
                states.append("selected" if i == self._selected else "idle")
            elif i == question.answer:
                states.append("right")
            else:
                states.append("wrong" if i == chosen else "dim")
        return states

    def review(self) -> list[ReviewItem]:
        """Every question asked (the open quiz's, or the round's) with the answer given and its verdict; numbered as
        in the quiz."""
        if self._quiz is None:
            return []
        answers = self.answers
        numbers = {q.id: n for n, q in enumerate(self._quiz.questions, start=1)}
        items = []
        for question in self.questions:
            number = numbers[question.id]
            chosen = answers.get(question.id)
            verdict = "none" if chosen is None else "right" if chosen == question.answer else "wrong"
            items.append(ReviewItem(number, question, chosen, verdict))
        return items

    def progress(self) -> Progress:
        """What to save so that a later session comes back here."""
        return Progress(
            language=self._language,
            open_quiz=self._quiz.id if self._quiz is not None else "",
            current=dict(self._current),
            answers={quiz_id: dict(answers) for quiz_id, answers in self._answers.items()},
        )

    # -- actions -------------------------------------------------------------------------------------------------

    def set_language(self, lang: str) -> Change:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown quiz language {lang!r}; known: {', '.join(LANGUAGES)}")
        if lang == self._language:
            return Change.NONE
        self._language = lang
        return Change.SHOWN

    def open_quiz(self, quiz_id: str) -> Change:
        """Show the quiz at the question the user was on (the first, the first time)."""
        quiz = self.quiz(quiz_id)
        self._end_round()
        self._quiz = quiz
        saved = self._current.get(quiz.id)
        ids = [q.id for q in quiz.questions]
        self._index = ids.index(saved) if saved in ids else 0
        return self._go(QUESTION)

    def resume(self, quiz_id: str) -> Change:
        """Open the quiz from the chooser: a quiz with every question answered opens on its review."""
        self.open_quiz(quiz_id)
        if len(self._answers[quiz_id]) == len(self.quiz(quiz_id).questions):
            return self.show_review()
        return Change.PAGE

    def go_to(self, index: int) -> Change:
        if self._quiz is None or not 0 <= index < len(self.questions):
            return Change.NONE
        self._index = index
        return self._go(QUESTION)

    def next_question(self) -> Change:
        """The next question; after the last, the review page."""
        if self._quiz is None:
            return Change.NONE
        if self._index + 1 < len(self.questions):
            return self.go_to(self._index + 1)
        return self.show_review()

    def previous_question(self) -> Change:
        if self._page == REVIEW and self._quiz is not None:
            return self.go_to(len(self.questions) - 1)
        return self.go_to(self._index - 1)

    def select_choice(self, index: int) -> Change:
        """Mark a choice; `confirm` answers with it. Answered questions stay as they are."""
        question = self.current_question
        if self._page != QUESTION or question is None or question.id in self.answers:
            return Change.NONE
        if not 0 <= index < len(question.choices):
            return Change.NONE
        self._selected = index
        return Change.SHOWN

    def answer(self, index: int) -> Change:
        """Answer the question shown with choice `index`; an answered question is locked."""
        question = self.current_question
        if self._page != QUESTION or question is None or self._quiz is None:
            return Change.NONE
        answers = self._round_answers if self._round is not None else self._answers[self._quiz.id]
        if question.id in answers or not 0 <= index < len(question.choices):
            return Change.NONE
        answers[question.id] = index
        self._selected = None
        return Change.SHOWN

    def confirm(self) -> Change:
        """Answer with the marked choice, or, once answered, go on."""
        question = self.current_question
        if self._page != QUESTION or question is None:
            return Change.NONE
        if question.id in self.answers:
            return self.next_question()
        if self._selected is not None:
            return self.answer(self._selected)
        return Change.NONE

    def record_prediction(self, question_id: str, right: bool) -> Change:
        """The learner's prediction on a question of the open quiz, graded; the first one counts."""
        if self._quiz is None or not any(q.id == question_id for q in self.questions):
            return Change.NONE
        made = self._round_predictions if self._round is not None else self._predictions[self._quiz.id]
        if question_id in made:
            return Change.NONE
        made[question_id] = right
        return Change.SHOWN

    def show_review(self) -> Change:
        return self._go(REVIEW) if self._quiz is not None else Change.NONE

    def restart(self) -> Change:
        """Forget the open quiz's answers and start it again from the first question."""
        if self._quiz is None:
            return Change.NONE
        self._end_round()
        self._answers[self._quiz.id] = {}
        self._predictions[self._quiz.id] = {}
        self._index = 0
        return self._go(QUESTION)

    def start_retry(self, seed: int | None = None) -> Change:
        """Ask the missed questions again, in a new order, each with a new seed for a fresh case; a round in a
        round asks what it missed. NONE when nothing was missed."""
        missed = self.missed()
        if self._quiz is None or not missed:
            return Change.NONE
        rng = random.Random(seed if seed is not None else random.SystemRandom().randrange(1 << 62))
        index = {q.id: i for i, q in enumerate(self._quiz.questions)}
        order = [index[q.id] for q in missed]
        before = list(order)
        rng.shuffle(order)
        if len(order) > 1 and order == before:  # a new order, so the learner cannot answer from the sequence
            order = order[1:] + order[:1]
        self._round = order
        self._round_answers, self._round_predictions = {}, {}
        self._round_seeds = {self._quiz.questions[i].id: rng.randrange(1, 1 << 31) for i in order}
        self._index = 0
        return self._go(QUESTION)

    def end_retry(self) -> Change:
        """Leave the retry round for the quiz's own review."""
        if self._round is None:
            return Change.NONE
        self._end_round()
        return self.show_review()

    def back_to_quizzes(self) -> Change:
        self._end_round()
        self._quiz = None
        return self._go(CHOOSER)

    def _end_round(self) -> None:
        if self._round is not None and self._index < len(self._round):
            self._index = self._round[self._index]  # the quiz's own index of the question shown
        self._round = None
        self._round_answers, self._round_predictions, self._round_seeds = {}, {}, {}

    def _go(self, page: str) -> Change:
        self._page = page
        self._selected = None
        question = self.current_question
        if self._quiz is not None and question is not None and page == QUESTION:
            self._current[self._quiz.id] = question.id
        return Change.PAGE
