"""How every kitgen command parses and fails (docs/design.md §9.1): a usage error in kitgen's words,
one line on stderr (``kitgen: error: ...``), and the exit code of its kind. The one place click's
errors are turned into kitgen's."""

import sys
import traceback

import click

from ..errors import KitgenError

EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_CHECK_FAILED = 2, 1, 3
# click 8.2 and later; click 8.1 prints a group's help itself and reports an unknown command as a plain usage error
_NO_SUCH_COMMAND = getattr(click.exceptions, "NoSuchCommand", ())
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class _KitgenParsing:
    """What every kitgen command and group shares: a usage error knows its command (and, for a bad
    option value, the value as typed), and a command list never cuts a description short."""

    def parse_args(self, ctx, args):
        given = list(args)                      # click's parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            err.ctx = err.ctx or ctx            # click's parser leaves it out, e.g. for a missing option value
            err.cmd = err.ctx.command
            if isinstance(err, click.BadParameter) and isinstance(err.param, click.Option):
                err.typed = _typed_value(given, err.param.opts)
            raise

    def get_short_help_str(self, limit: int = 45) -> str:
        """The whole description (``short_help``, else the first sentence), never cut with "...";
        tests/test_terminal.py checks that each fits one line of an 80-column terminal."""
        return super().get_short_help_str(limit=sys.maxsize)


class ExtraArguments(click.UsageError):
    """Words left over after a command's arguments: reported by kitgen, not click, to name them."""

    def __init__(self, extra: list[str], ctx: click.Context):
        super().__init__(f"unexpected argument(s) {' '.join(extra)}", ctx)
        self.extra = extra


class KitgenCommand(_KitgenParsing, click.Command):
    """A kitgen command: leftover arguments raise ``ExtraArguments``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.context_settings = {**self.context_settings, "allow_extra_args": True}   # parse_args checks them

    def parse_args(self, ctx, args):
        rest = super().parse_args(ctx, args)
        if rest and not ctx.resilient_parsing:
            raise ExtraArguments(rest, ctx)
        return rest

    def format_options(self, ctx, formatter):
        """The kernel's options, then each game's own under its title ("Options of the Foo
        game"), as the families declare them (``cli/common.family_options``)."""
        sections: dict[str, list] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record:
                sections.setdefault(getattr(param, "section", None) or "Options", []).append(record)
        for title, records in sections.items():
            with formatter.section(title):
                formatter.write_dl(records)


class KitgenGroup(_KitgenParsing, click.Group):
    """kitgen and its command groups. Run as a program (``standalone_mode``), it turns every error into
    one line on stderr, ``kitgen: error: ...``, and exits with the code of docs/design.md §9.1."""

    command_class = KitgenCommand
    group_class = type                      # subgroups (kitgen deck) are KitgenGroups too
    assemble = None                         # the root group: adds the families' commands, before it runs

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """click's ``main``, with kitgen's error lines; ``--debug`` is taken out wherever it stands."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        args = sys.argv[1:] if args is None else list(args)
        debug = "--debug" in args
        args = [a for a in args if a != "--debug"]
        try:
            if self.assemble is not None:
                self.assemble()
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NO_ARGS_IS_HELP as err:         # a group without its command: its help, as kitgen alone does
            click.echo(err.ctx.get_help())
            code = 0
        except KitgenError as err:
            if debug:
                traceback.print_exc()
            _fail(str(err), err.exit_code)
        except click.UsageError as err:
            _fail(usage_message(err), EXIT_BAD_INPUT)
        except click.ClickException as err:
            _fail(_kitgen_case(err.format_message()), err.exit_code)
        except click.exceptions.Abort:
            click.echo("kitgen: aborted", err=True)
            sys.exit(EXIT_INTERNAL)
        except (KeyboardInterrupt, BrokenPipeError):
            sys.exit(EXIT_INTERNAL)
        except Exception as err:  # an internal error: say so plainly
            if debug:
                traceback.print_exc()
            click.echo(f"kitgen: internal error: {type(err).__name__}: {err} (run with --debug for details)", err=True)
            sys.exit(EXIT_INTERNAL)
        sys.exit(code or 0)


def _fail(message: str, code: int):
    """The one line every error ends in, kitgen's own and click's alike."""
    click.echo(f"kitgen: error: {message}", err=True)
    sys.exit(code)


def usage_message(err: click.UsageError) -> str:
    """A click usage error in kitgen's words: lower case, no full stop, the option or command named,
    what to write instead, then where the help is: ``(see 'kitgen build --help')``."""
    for kind, describe in _USAGE_MESSAGES:
        if isinstance(err, kind) and err.ctx is not None:
            text = describe(err)
            break
    else:
        text = _kitgen_case(err.format_message())
    return f"{text} (see '{err.ctx.command_path if err.ctx else 'kitgen'} --help')"


def _no_such_option(err: click.NoSuchOption) -> str:
    """``unknown option --colour; did you mean --color?``"""
    return f"unknown option {err.option_name}{_did_you_mean(err.possibilities)}"


def _no_such_command(err: click.UsageError) -> str:
    """``no kitgen command 'buidl'; did you mean build?``, else the commands there are."""
    group, ctx = err.ctx.command, err.ctx
    text = f"no {ctx.command_path} command {err.command_name!r}"
    if err.possibilities:
        return text + _did_you_mean(err.possibilities)
    names = [n for n in group.list_commands(ctx) if not group.get_command(ctx, n).hidden]
    return f"{text}; the commands are {', '.join(names)}"


def _extra_arguments(err: ExtraArguments) -> str:
    """``unexpected argument 'b': kitgen verify takes one TARGET; quote it if it has spaces``"""
    arguments = [p for p in err.ctx.command.params if isinstance(p, click.Argument)]
    words = ", ".join(map(repr, err.extra))
    text = f"unexpected argument{'s' if len(err.extra) > 1 else ''} {words}: {err.ctx.command_path} takes "
    if not arguments:
        return text + "options only"
    takes = [f"{'one' if p.required else 'at most one'} {p.make_metavar(err.ctx).strip('[]')}" for p in arguments]
    return text + " and ".join(takes) + ("; quote it if it has spaces" if len(takes) == 1 else
                                         "; quote each that has spaces")


def _missing(err: click.MissingParameter) -> str:
    """``kitgen verify needs TARGET; write kitgen verify [OPTIONS] TARGET``"""
    if isinstance(err.param, click.Argument):
        usage = " ".join([err.ctx.command_path, *err.ctx.command.collect_usage_pieces(err.ctx)])
        return f"{err.ctx.command_path} needs {err.param.make_metavar(err.ctx).strip('[]')}; write {usage}"
    if isinstance(err.param, click.Option):
        name = _long_name(err.param)
        return f"{err.ctx.command_path} needs {name}; write {name} {err.param.make_metavar(err.ctx).strip('[]')}"
    return _kitgen_case(err.format_message())


def _bad_value(err: click.BadParameter) -> str:
    """``--keys must be a whole number, not 'many'``, as kitgen's own checks word it."""
    requirement = _requirement(err.param.type) if err.param is not None else None
    if not isinstance(err.param, click.Option) or requirement is None:
        return _kitgen_case(err.format_message())
    typed = getattr(err, "typed", None)
    return f"{_long_name(err.param)} must be {requirement}" + (f", not {_shown(typed)}" if typed is not None else "")


def _bad_option_use(err: click.BadOptionUsage) -> str:
    """A value missing after an option, or given to a flag (``--per-card=yes``)."""
    option = next((p for p in err.ctx.command.params if err.option_name in getattr(p, "opts", ())), None)
    if not isinstance(option, click.Option):
        return _kitgen_case(err.format_message())
    if option.is_flag or option.count:
        return f"{err.option_name} takes no value; write {err.option_name} alone"
    values = "a value" if option.nargs == 1 else f"{option.nargs} values"
    return f"{err.option_name} needs {values}; write {err.option_name} {option.make_metavar(err.ctx).strip('[]')}"


_USAGE_MESSAGES = [(click.NoSuchOption, _no_such_option), (_NO_SUCH_COMMAND, _no_such_command),
                   (ExtraArguments, _extra_arguments), (click.MissingParameter, _missing),
                   (click.BadParameter, _bad_value), (click.BadOptionUsage, _bad_option_use)]


def _requirement(kind: click.ParamType) -> str | None:
    """What a value of this type must be, in kitgen's words (``a whole number from 1 to 40``)."""
    if isinstance(kind, click.Choice):
        return "one of " + ", ".join(map(str, kind.choices))
    if isinstance(kind, (click.IntRange, click.FloatRange)):
        if kind.min_open or kind.max_open or kind.clamp:
            return None
        number = "a whole number" if isinstance(kind, click.IntRange) else "a number"
        if kind.min is not None and kind.max is not None:
            return f"{number} from {kind.min} to {kind.max}"
        return f"{number} of at least {kind.min}" if kind.min is not None else f"{number} of at most {kind.max}"
    if isinstance(kind, click.types.IntParamType):
        return "a whole number"
    if isinstance(kind, click.types.FloatParamType):
        return "a number"
    return None


def _did_you_mean(possibilities: list[str] | None) -> str:
    """``; did you mean --color or --out?`` (best match first), or nothing."""
    if not possibilities:
        return ""
    *rest, last = possibilities
    return f"; did you mean {', '.join(rest) + ' or ' if rest else ''}{last}?"


def _typed_value(args: list[str], names: list[str]) -> str | None:
    """The value the command line last gave an option (``--keys x`` or ``--keys=x``), as typed."""
    value = None
    for i, arg in enumerate(args):
        name, equals, rest = arg.partition("=")
        if name in names:
            value = rest if equals else (args[i + 1] if i + 1 < len(args) else None)
    return value


def _shown(value: str) -> str:
    """A value as kitgen's messages show one: a number bare, anything else quoted."""
    try:
        float(value)
        return value
    except ValueError:
        return repr(value)


def _long_name(option: click.Option) -> str:
    """``--color`` rather than ``-c``."""
    return max(option.opts, key=len)


def _kitgen_case(message: str) -> str:
    """click's own wording in kitgen's case: lower-case start (not of a name like YAML), no full stop."""
    if message[:1].isupper() and not message[1:2].isupper():
        message = message[0].lower() + message[1:]
    return message.rstrip(".")


def command(name: str | None = None, **attrs):
    """``click.command`` for kitgen: a ``KitgenCommand``. A family makes its own commands with it (and
    ``group``), so its usage errors read as kitgen's."""
    return click.command(name, cls=KitgenCommand, **attrs)


def group(name: str | None = None, **attrs):
    """``click.group`` for kitgen: a ``KitgenGroup``, whose subcommands are ``KitgenCommand``s."""
    return click.group(name, cls=KitgenGroup, **attrs)
