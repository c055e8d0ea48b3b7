import CPCRE2
