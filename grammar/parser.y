%define api.pure full
%define api.prefix {rsc_yy}
%code { static int rsc_yylex(void *v) { (void)v; return 0; } static void rsc_yyerror(const char *s) { (void)s; } }
%%
start: %empty ;
%%
